/**
 * Test kit shared by every module (libtp-core's test-jar): {@link org.libtp.core.testkit.ChildJvm}
 * starts, watches and SIGKILLs child JVMs; {@link org.libtp.core.testkit.Seeds} gives randomized
 * tests a printed, replayable seed.
 */
package org.libtp.core.testkit;
