package org.libtp.bench.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** An engine's directory, made before the engine opens its files in it. */
public final class EngineDirs {
    private EngineDirs() {
    }

    /** Creates {@code dir} and its parents if missing; returns it. */
    public static Path create(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }
}
