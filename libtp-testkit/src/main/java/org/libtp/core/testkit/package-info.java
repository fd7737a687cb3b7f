/**
 * The multi-JVM kit (module libtp-testkit, which depends on nothing of LibTP so that libtp-core's
 * own tests can use it): {@link org.libtp.core.testkit.ChildJvm} starts, watches and SIGKILLs
 * child JVMs on the test class path; {@link org.libtp.core.testkit.PipedChild} and
 * {@link org.libtp.core.testkit.Phases} are the READY/GO/MARK/STOP control pipe between a
 * benchmark harness and its worker JVMs; {@link org.libtp.core.testkit.ParentWatch} builds a
 * child's command line and, in the child, halts it once its parent is gone;
 * {@link org.libtp.core.testkit.Seeds} gives randomized tests a printed, replayable seed.
 *
 * <p>The package keeps its old name (it was libtp-core's test-jar) so that no test's imports move.
 * The test record manager ({@code SlotStore}) stays in libtp-core's tests: it is a resource
 * manager over core's regions and log, and this module must not depend on core.
 */
package org.libtp.core.testkit;
