/**
 * Region files: the shared memory of an environment. Each manager owns one or two region files
 * in the environment's region directory (in {@code /dev/shm} by default, see
 * {@link org.libtp.core.env.RegionPlacement}), memory-mapped {@code MAP_SHARED} by every
 * attached process.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every region starts with a {@link org.libtp.core.region.RegionHeader} (magic, version,
 *       layout fingerprint, size, creation config, flags). A mismatch is refused at attach, never
 *       misread.</li>
 *   <li>Sizes are fixed at creation; a region never grows. Every block is allocated before the
 *       file is mapped ({@link org.libtp.core.region.FileSpace}: {@code posix_fallocate}), so no
 *       mapped access ever needs space the file system may not have (a sparse region faults with
 *       SIGBUS, an {@code InternalError} in Java, when a full disk or tmpfs cannot supply a page);
 *       no room is an {@code OutOfSpaceException} at creation, with the half-built file
 *       removed.</li>
 *   <li>A region is created by exactly one process, under the environment's creation lock, and
 *       marked ready only after its payload is initialized.</li>
 *   <li>Region files are transient: they hold no data that outlives the last process (that is
 *       in the log and data files), so a process that opens an environment alone rebuilds
 *       them, and the last one to close it cleanly deletes them.</li>
 *   <li>Latches live at declared {@link org.libtp.core.region.LatchArray}s so that any process can
 *       find the latches a dead process held.</li>
 * </ul>
 */
package org.libtp.core.region;
