package org.libtp.core.memory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Maps files as {@link Memory}, choosing the implementation.
 *
 * <p>{@link MemoryImpl#AUTO} resolves to {@link #DEFAULT_IMPL}, picked by the JMH benchmark
 * recorded in {@code docs/benchmarks.md}. A Chronicle request on a JVM that lacks Chronicle's
 * {@code --add-opens}, or that does not have Chronicle-Bytes on its class path at all (it is an
 * optional dependency), falls back to the VarHandle implementation with one INFO line per JVM.
 *
 * <p>{@link ChronicleMemory} is the only class that links against Chronicle; it is loaded only
 * after {@link #chronicleUsable()} has found Chronicle on the class path, so that a missing
 * optional dependency is a fallback, never a {@code NoClassDefFoundError}.
 */
public final class MemoryFactory {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryFactory.class);

    /** The implementation {@link MemoryImpl#AUTO} means (see docs/benchmarks.md). */
    public static final MemoryImpl DEFAULT_IMPL = MemoryImpl.VARHANDLE;

    /** log2 of the mapping chunk size: 1 GiB, so an int index always suffices. */
    public static final int DEFAULT_CHUNK_SHIFT = 30;

    /**
     * A Chronicle-Bytes class {@link ChronicleMemory} needs, looked up (not initialized) before
     * {@link ChronicleMemory} itself is touched.
     */
    static final String CHRONICLE_CLASS = "net.openhft.chronicle.bytes.PointerBytesStore";

    private static volatile String chronicleProblem; // null = not probed yet or works
    private static volatile boolean chronicleProbed;

    private MemoryFactory() {
    }

    /** Resolves AUTO and falls back from an unusable Chronicle. */
    public static MemoryImpl resolve(MemoryImpl requested) {
        MemoryImpl impl = requested == MemoryImpl.AUTO ? DEFAULT_IMPL : requested;
        if (impl == MemoryImpl.CHRONICLE && !chronicleUsable()) {
            return MemoryImpl.VARHANDLE;
        }
        return impl;
    }

    /** True if Chronicle-Bytes works in this JVM (probed once). */
    public static boolean chronicleUsable() {
        if (!chronicleProbed) {
            synchronized (MemoryFactory.class) {
                if (!chronicleProbed) {
                    String problem = chronicleProblem(CHRONICLE_CLASS);
                    chronicleProblem = problem;
                    chronicleProbed = true;
                    if (problem != null) {
                        LOG.info("Chronicle-Bytes memory is not usable in this JVM ({}); using the "
                                + "VarHandle implementation, which needs no JVM flags", problem);
                    }
                }
            }
        }
        return chronicleProblem == null;
    }

    /**
     * Null if Chronicle-Bytes works in this JVM, else why not. The class path is checked first
     * (the most likely reason and the most useful message), then the flags, both before any
     * Chronicle class is loaded; only then is Chronicle tried for real.
     *
     * @param chronicleClass the class that stands for Chronicle-Bytes being present (tests pass
     *                       a missing one)
     */
    static String chronicleProblem(String chronicleClass) {
        if (!onClassPath(chronicleClass)) {
            return "Chronicle-Bytes is not on the class path: " + chronicleClass + " not found; it is an "
                    + "optional dependency, add net.openhft:chronicle-bytes to use it";
        }
        String problem = missingChronicleFlags();
        if (problem != null) {
            return problem;
        }
        try {
            return ChronicleMemory.probe();
        } catch (LinkageError e) { // a partial or incompatible Chronicle on the class path
            return e.toString();
        }
    }

    /** True if {@code className} can be loaded by LibTP's class loader; it is not initialized. */
    static boolean onClassPath(String className) {
        try {
            Class.forName(className, false, MemoryFactory.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * The packages Chronicle-Bytes reaches into. Checked before any Chronicle class is loaded:
     * without them Chronicle may still work in part, but logs errors and warnings at class
     * initialization, and its own documentation requires them.
     */
    private static final String[][] CHRONICLE_OPENS = {
        {"java.base", "java.lang.reflect"}, {"java.base", "java.nio"}, {"java.base", "sun.nio.ch"},
        {"java.base", "jdk.internal.misc"}, {"java.base", "jdk.internal.ref"},
    };

    /** Null if every package Chronicle needs is open to us, else the flags that are missing. */
    static String missingChronicleFlags() {
        Module us = MemoryFactory.class.getModule();
        StringBuilder missing = new StringBuilder();
        for (String[] p : CHRONICLE_OPENS) {
            java.util.Optional<Module> m = ModuleLayer.boot().findModule(p[0]);
            if (m.isEmpty() || !m.get().isOpen(p[1], us)) {
                missing.append(missing.length() == 0 ? "" : " ").append("--add-opens=").append(p[0])
                        .append('/').append(p[1]).append("=ALL-UNNAMED");
            }
        }
        return missing.length() == 0 ? null : "JVM flags missing: " + missing;
    }

    /**
     * Maps {@code size} bytes of {@code channel} from position 0, read-write and shared. The file
     * must already be at least {@code size} bytes long (mapping never grows it here).
     */
    public static Memory map(FileChannel channel, String name, long size, MemoryImpl impl)
            throws IOException {
        return map(channel, name, size, impl, DEFAULT_CHUNK_SHIFT);
    }

    /** As {@link #map(FileChannel, String, long, MemoryImpl)} with a chosen chunk size (tests). */
    public static Memory map(FileChannel channel, String name, long size, MemoryImpl impl,
                             int chunkShift) throws IOException {
        if (size <= 0) {
            throw new IllegalArgumentException("cannot map " + size + " bytes of " + name);
        }
        long chunk = 1L << chunkShift;
        int n = (int) ((size + chunk - 1) >>> chunkShift);
        ByteBuffer[] chunks = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            long pos = (long) i << chunkShift;
            chunks[i] = channel.map(FileChannel.MapMode.READ_WRITE, pos, Math.min(chunk, size - pos));
        }
        return wrap(name, chunks, chunkShift, impl);
    }

    /** Wraps direct buffers (all {@code 1 << chunkShift} bytes but the last). */
    public static Memory wrap(String name, ByteBuffer[] chunks, int chunkShift, MemoryImpl impl) {
        if (resolve(impl) == MemoryImpl.CHRONICLE) {
            return new ChronicleMemory(name, chunks, chunkShift);
        }
        return new MappedMemory(name, chunks, chunkShift);
    }
}
