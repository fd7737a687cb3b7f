/**
 * LibTP core: the exception hierarchy shared by every manager.
 *
 * <p>Sub-packages hold the shared-memory substrate ({@code memory}, {@code region}, {@code sync},
 * {@code env}) and, in later issues, one package per manager of the paper (log, buffer, lock,
 * process, transaction).
 */
package org.libtp.core;
