/**
 * LibTP core: the exception hierarchy shared by every manager.
 *
 * <p>Sub-packages hold the shared-memory substrate ({@code memory}, {@code region}, {@code sync},
 * {@code env}), the storage interface every durable file goes through ({@code storage}), and one
 * package per manager of the paper: {@code log}, {@code buffer}, {@code lock} (with the per-transaction
 * semaphores of the process manager) and {@code txn}.
 */
package org.libtp.core;
