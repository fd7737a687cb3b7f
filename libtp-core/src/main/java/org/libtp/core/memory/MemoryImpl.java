package org.libtp.core.memory;

/** Which {@link Memory} implementation maps regions. */
public enum MemoryImpl {
    /** The default chosen by the benchmark in {@code docs/benchmarks.md}; see {@link MemoryFactory}. */
    AUTO,
    /** {@link MappedMemory}: {@code MappedByteBuffer} + {@code VarHandle}; needs no JVM flags. */
    VARHANDLE,
    /**
     * {@link ChronicleMemory}: Chronicle-Bytes over the mapping. Needs
     * {@code net.openhft:chronicle-bytes} on the class path (an optional dependency the
     * application adds) and Chronicle's {@code --add-opens/--add-exports}; without either LibTP
     * falls back to {@link #VARHANDLE} with one INFO log line.
     */
    CHRONICLE
}
