/**
 * B-tree (Lehman-Yao B-link locking, paper section 3.1.2) and fixed-length recno access
 * methods, and the record API ({@code Environment}, {@code Database}, {@code Transaction},
 * {@code Cursor}) with the paper's open modes: unprotected, SHARED pool, and TP.
 *
 * <p>Not built yet: this module holds only this note until the access-method issue lands.
 */
package org.libtp.btree;
