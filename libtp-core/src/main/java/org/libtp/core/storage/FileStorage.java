package org.libtp.core.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@link Storage} on the real file system, through {@link FileChannel}. */
public final class FileStorage implements Storage {
    private final Path directory;

    public FileStorage(Path directory) {
        this.directory = directory;
    }

    @Override
    public Path directory() {
        return directory;
    }

    @Override
    public StorageFile open(String name, boolean create) throws IOException {
        Path p = directory.resolve(name);
        FileChannel ch = create
                ? FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new ChannelFile(name, ch);
    }

    @Override
    public boolean exists(String name) {
        return Files.exists(directory.resolve(name));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(directory)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().forEach(out::add);
        }
        return out;
    }

    @Override
    public void delete(String name) throws IOException {
        Files.deleteIfExists(directory.resolve(name));
    }

    @Override
    public void rename(String from, String to) throws IOException {
        Files.move(directory.resolve(from), directory.resolve(to), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void forceDirectory() throws IOException {
        try (FileChannel d = FileChannel.open(directory, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    private static final class ChannelFile implements StorageFile {
        private static final int ZEROS = 64 * 1024;
        private final String name;
        private final FileChannel channel;

        ChannelFile(String name, FileChannel channel) {
            this.name = name;
            this.channel = channel;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return channel.read(dst, position);
        }

        @Override
        public void write(ByteBuffer src, long position) throws IOException {
            long p = position;
            while (src.hasRemaining()) {
                p += channel.write(src, p);
            }
        }

        @Override
        public void force() throws IOException {
            channel.force(false);
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
        }

        @Override
        public void preallocate(long size) throws IOException {
            long at = channel.size();
            ByteBuffer zeros = ByteBuffer.allocate(ZEROS);
            while (at < size) {
                zeros.clear().limit((int) Math.min(ZEROS, size - at));
                write(zeros, at);
                at += zeros.limit();
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
