/**
 * A JDBC driver ({@code jdbc:libtp:<dir>}) with a small SQL subset over the record API.
 *
 * <p>Not built yet: this module holds only this note until the JDBC issue lands.
 */
package org.libtp.jdbc;
