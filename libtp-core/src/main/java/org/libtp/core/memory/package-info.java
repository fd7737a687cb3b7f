/**
 * Off-heap memory: the one small interface ({@link org.libtp.core.memory.Memory}) every shared
 * structure is read and written through, and its two implementations.
 *
 * <ul>
 *   <li>{@link org.libtp.core.memory.MappedMemory}: {@code MappedByteBuffer} + {@code VarHandle};
 *       needs no JVM flags. Default (see {@code docs/benchmarks.md} for the measurement).</li>
 *   <li>{@link org.libtp.core.memory.ChronicleMemory}: Chronicle-Bytes, an optional dependency;
 *       needs Chronicle's {@code --add-opens}, falls back automatically when they or Chronicle
 *       itself are absent.</li>
 * </ul>
 *
 * <p>Invariants: every access is bounds-checked before memory is touched (a corrupt offset is an
 * exception, never a JVM crash); atomic operations need natural alignment; mappings are never
 * unmapped explicitly (a racing access to an unmapped range would crash the JVM), and region
 * files are never truncated while mapped (that would raise SIGBUS): they are deleted and created
 * anew, so old mappings keep the old inode.
 */
package org.libtp.core.memory;
