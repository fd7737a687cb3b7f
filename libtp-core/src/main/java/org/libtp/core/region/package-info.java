/**
 * Region files: the shared memory of an environment. Each manager owns one region file in the
 * environment directory, memory-mapped {@code MAP_SHARED} by every attached process.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every region starts with a {@link org.libtp.core.region.RegionHeader} (magic, version,
 *       layout fingerprint, size, creation config, flags). A mismatch is refused at attach, never
 *       misread.</li>
 *   <li>Sizes are fixed at creation; a region never grows.</li>
 *   <li>A region is created by exactly one process, under the environment's creation lock, and
 *       marked ready only after its payload is initialized.</li>
 *   <li>Region files are transient: they hold no data that outlives the last process (that is
 *       in the log and data files), so a process that opens an environment alone rebuilds
 *       them.</li>
 *   <li>Latches live at declared {@link org.libtp.core.region.LatchArray}s so that any process can
 *       find the latches a dead process held.</li>
 * </ul>
 */
package org.libtp.core.region;
