package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damage to the environment's metadata is explained, and has a way out: a damaged or missing file
 * registry ({@code __libtp.files}) is refused naming it and rebuilt from the data files' header
 * pages (before, every open threw IllegalArgumentException "file id 1 is not registered"); a
 * registered data file that is missing, or one from another environment, is refused naming it;
 * a damaged catalog page is refused naming the catalog file and the page.
 */
class MetadataDamageTest {
    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static final DatabaseConfig CREATE = DatabaseConfig.builder().allowCreate(true).build();

    /**
     * The environment's settings. The catalog-page tests turn torn-write protection off: with it,
     * a page damaged after a clean close whose image the log still holds (the closing checkpoint
     * wrote it) is rewritten from that image at the next open (see TornPageTest), and these tests
     * are about the damage nothing can repair.
     */
    EnvironmentConfig cfg = EnvironmentConfig.defaults();

    private void populate(Path home) {
        try (Environment env = Environment.open(home, cfg);
             Database a = env.openDatabase(null, "a", CREATE);
             Database c = env.openDatabase(null, "c", CREATE)) {
            for (int i = 0; i < 500; i++) {
                a.put(null, b("k" + i), b("a" + i));
                c.put(null, b("k" + i), b("c" + i));
            }
        }
    }

    private void assertIntact(Path home) {
        try (Environment env = Environment.open(home, cfg);
             Database a = env.openDatabase(null, "a", DatabaseConfig.defaults());
             Database c = env.openDatabase(null, "c", DatabaseConfig.defaults())) {
            for (int i = 0; i < 500; i++) {
                assertArrayEquals(b("a" + i), a.get(null, b("k" + i)));
                assertArrayEquals(b("c" + i), c.get(null, b("k" + i)));
            }
            assertEquals(java.util.List.of(), a.verify());
        }
    }

    private CorruptionException refused(Path home) {
        return assertThrows(CorruptionException.class, () -> {
            try (Environment env = Environment.open(home, cfg)) {
                env.openDatabase(null, "a", DatabaseConfig.defaults()).close();
            }
        });
    }

    @Test
    void aMissingRegistryIsRefusedAndRebuiltFromTheDataFiles() throws Exception {
        populate(dir);
        Files.delete(dir.resolve("__libtp.files"));
        CorruptionException e = refused(dir);
        assertTrue(e.getMessage().contains("__libtp.files") && e.getMessage().contains("rebuildFileRegistry"),
                e.getMessage());
        assertEquals(3, Environment.rebuildFileRegistry(dir), "catalog, a and c");
        assertIntact(dir);
    }

    @Test
    void aDamagedRegistryIsRefusedAndRebuilt() throws Exception {
        populate(dir);
        try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("__libtp.files").toFile(), "rw")) {
            raf.seek(20);
            raf.write(raf.read() ^ 0x40);
        }
        CorruptionException e = refused(dir);
        assertTrue(e.getMessage().contains("__libtp.files") && e.getMessage().contains("rebuildFileRegistry"),
                e.getMessage());
        Environment.rebuildFileRegistry(dir);
        assertIntact(dir);
    }

    @Test
    void aMissingDataFileIsRefusedNamingIt() throws Exception {
        populate(dir);
        Files.delete(dir.resolve("c.db"));
        CorruptionException e = refused(dir);
        assertTrue(e.getMessage().contains("c.db") && e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void aDataFileFromAnotherEnvironmentIsRefusedNamingIt() throws Exception {
        Path other = Files.createDirectory(dir.resolve("other"));
        Path home = Files.createDirectory(dir.resolve("home"));
        populate(home);
        populate(other);
        Files.copy(other.resolve("a.db"), home.resolve("a.db"), StandardCopyOption.REPLACE_EXISTING);
        CorruptionException e = refused(home);
        assertTrue(e.getMessage().contains("a.db") && e.getMessage().contains("another environment"), e.getMessage());
    }

    @Test
    void aDamagedCatalogPageIsRefusedNamingTheFileAndPage() throws Exception {
        cfg = EnvironmentConfig.builder().tornWriteProtection(false).build();
        populate(dir);
        try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("catalog.libtp").toFile(), "rw")) {
            raf.seek(2 * 4096 + 2000); // page 1 (the catalog tree's root), after the header page
            raf.write(raf.read() ^ 0x01);
        }
        CorruptionException e = refused(dir);
        assertTrue(e.getMessage().contains("catalog.libtp") && e.getMessage().contains("page 1"), e.getMessage());
    }

    @Test
    void aDamagedCatalogIsSalvagedFromTheDataFiles() throws Exception {
        cfg = EnvironmentConfig.builder().tornWriteProtection(false).build();
        populate(dir);
        try (Environment env = Environment.open(dir, cfg);
             Database r = env.openDatabase(null, "r", DatabaseConfig.builder().allowCreate(true)
                     .type(DatabaseType.RECNO).recordLength(16).build())) {
            r.append(null, new byte[16]);
        }
        try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("catalog.libtp").toFile(), "rw")) {
            raf.seek(2 * 4096 + 2000);
            raf.write(raf.read() ^ 0x01);
        }
        CorruptionException e = refused(dir);
        assertTrue(e.getMessage().contains("catalog.libtp"), e.getMessage());
        java.util.List<String> names = Environment.rebuildCatalog(dir, cfg);
        assertEquals(java.util.List.of("a", "c", "r"), names.stream().sorted().toList());
        assertIntact(dir);
        try (Environment env = Environment.open(dir, cfg);
             Database r = env.openDatabase(null, "r", DatabaseConfig.builder().type(DatabaseType.RECNO).build())) {
            assertEquals(16, r.config().recordLength());
            assertEquals(1, r.count(null));
        }
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            assertTrue(s.anyMatch(p -> p.getFileName().toString().startsWith("damaged-")), "the damaged catalog is kept aside");
        }
    }
}
