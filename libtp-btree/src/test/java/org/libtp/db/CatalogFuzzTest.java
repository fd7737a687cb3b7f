package org.libtp.db;

import org.libtp.core.testkit.FuzzTries;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.libtp.btree.AccessMethods;
import org.libtp.core.LibTpException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the catalog's entries (jqwik). The catalog ({@code catalog.libtp}) is a B-tree from
 * database name to the text {@code 1|TYPE|fileName[|recordLength]}; its pages are fuzzed with the
 * data files' by {@link PageFuzzTest}, and this fuzzes the entry text that a damaged (or
 * well-checksummed but wrong) page can carry: valid entries with characters deleted, inserted
 * or replaced (separators, path elements, the environment's own file names, bytes that are not
 * UTF-8), and random bytes. Each entry is put straight into the catalog tree under a fresh name,
 * then the database is opened as a B-tree and as a recno, its type asked, the names listed,
 * renamed and removed: results or a {@link LibTpException} (or the
 * {@link IllegalArgumentException} the API documents for a database of the other type) —
 * never another exception; and no file is created outside the environment directory.
 *
 * <p>Tries: as below in {@code mvn verify}, 100 times more under {@code -Pstress}
 * ({@link FuzzTries}). jqwik prints the seed of a failing run; replay with
 * {@code @Property(seed = "...")}.
 */
@AddLifecycleHook(FuzzTries.class)
class CatalogFuzzTest {
    static final EnvironmentConfig CONFIG = PageFuzzTest.CONFIG;
    private static Path root;
    private static Path home;
    private static Environment env;
    private static final AtomicInteger N = new AtomicInteger();

    static final String[] VALID = {"1|BTREE|b.db", "1|RECNO|r.db|24", "1|BTREE|+log.db"};
    static final String[] TOKENS = {"|", "||", "1", "0", "2", "BTREE", "RECNO", "HASH", "btree", ".", "..", "/", "../",
        "../../x.db", "/tmp/x.db", "\\", "__libtp.files", "__libtp.anchor", "__libtp.lock", "log.0000000001",
        Catalog.FILE, "b.db", "r.db", "", " ", "\u0000", "\n", "-1", "0", "2147483648", "99999999999", "1e3", "\uFFFD",
        "é", "x".repeat(300)};

    @BeforeContainer
    static void open() throws IOException {
        root = Files.createTempDirectory("catalog-fuzz");
        home = Files.createDirectory(root.resolve("env"));
        env = Environment.open(home, CONFIG);
        try (Database b = env.openDatabase(null, "b", DatabaseConfig.builder().allowCreate(true).build());
             Database r = env.openDatabase(null, "r", DatabaseConfig.builder().allowCreate(true)
                     .type(DatabaseType.RECNO).recordLength(24).build())) {
            b.put(null, new byte[] {1}, new byte[] {2});
            r.append(null, new byte[24]);
        }
    }

    @AfterContainer
    static void close() throws IOException {
        if (env != null) {
            env.close();
        }
        PageFuzzTest.delete(root);
    }

    @Provide
    Arbitrary<byte[]> entries() {
        Arbitrary<byte[]> mutated = Arbitraries.longs().map(seed -> {
            Random r = new Random(seed);
            String s = VALID[r.nextInt(VALID.length)];
            for (int i = 1 + r.nextInt(4); i > 0; i--) {
                int a = r.nextInt(s.length() + 1);
                int b = Math.min(s.length(), a + r.nextInt(6));
                String tok = TOKENS[r.nextInt(TOKENS.length)];
                s = switch (r.nextInt(4)) {
                    case 0 -> s.substring(0, a) + s.substring(b);
                    case 1 -> s.substring(0, a) + tok + s.substring(a);
                    case 2 -> s.substring(0, a) + tok + s.substring(b);
                    default -> s.substring(0, a);
                };
            }
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            if (r.nextInt(5) == 0 && bytes.length > 0) {
                bytes[r.nextInt(bytes.length)] = (byte) (0x80 | r.nextInt(128)); // not UTF-8
            }
            return bytes;
        });
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, mutated), net.jqwik.api.Tuple.of(1, random));
    }

    @Property(tries = 300)
    void damagedEntries(@ForAll("entries") byte[] entry) throws IOException {
        String name = "f" + N.incrementAndGet();
        AccessMethods.Tree tree = env.am.tree(env.tp.buffers().open(Catalog.FILE));
        env.autoCommit(t -> tree.put(t, name.getBytes(StandardCharsets.UTF_8), entry, false));
        String what = "entry '" + new String(entry, StandardCharsets.UTF_8) + "'";
        step(what, () -> env.databaseType(name));
        step(what, env::databaseNames);
        for (DatabaseType type : DatabaseType.values()) {
            step(what, () -> {
                DatabaseConfig c = DatabaseConfig.builder().type(type).readOnly(true).build();
                try (Database d = env.openDatabase(null, name, c)) {
                    if (type == DatabaseType.RECNO) {
                        d.get(null, 1L);
                    } else {
                        d.get(null, new byte[] {1});
                    }
                    try (Cursor cur = d.openCursor(null)) {
                        cur.first();
                    }
                }
                return null;
            });
        }
        step(what, () -> {
            env.renameDatabase(null, name, name + "x");
            env.removeDatabase(null, name + "x");
            return null;
        });
        step(what, () -> {
            env.removeDatabase(null, name);
            return null;
        });
        try (Stream<Path> s = Files.list(root)) {
            List<Path> outside = s.filter(p -> !p.equals(home)).toList();
            assertTrue(outside.isEmpty(), () -> what + " created " + outside + " outside the environment directory");
        }
        if (Files.exists(home.getParent().getParent().resolve("x.db")) || Files.exists(Path.of("/tmp/x.db"))) {
            fail(what + " created x.db outside the environment directory");
        }
    }

    /**
     * Before: IllegalArgumentException "data file name '' must be ..." from rename, remove and open;
     * "database r is a RENO database, not RECNO" (found by PageFuzzTest in a catalog page).
     */
    @Example
    void entriesNamingNoDataFile() throws IOException {
        for (String e : List.of("1|BTR\u00a6||bb", "1|BTREE|", "1|BTREE|a/b.db", "1|RECNO|../x.db|24", "1|BTREE|__libtp.files",
                "1|BTREE|log.0000000001", "1|BTREE|.", "1|RENO|r.db|24")) {
            damagedEntries(e.getBytes(StandardCharsets.UTF_8));
        }
    }

    static void step(String what, java.util.concurrent.Callable<?> op) {
        try {
            op.call();
        } catch (LibTpException e) {
            // a typed answer
        } catch (IllegalArgumentException e) {
            // documented: a database of the other type (a real type: another is a damaged entry),
            // a name taken, a name not allowed
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(" is a (\\S*) database, not ").matcher(e.getMessage());
            boolean otherType = m.find() && java.util.Arrays.stream(DatabaseType.values())
                    .anyMatch(x -> x.name().equals(m.group(1)));
            if (!otherType && !e.getMessage().contains("already exists") && !e.getMessage().contains("database name")) {
                fail("an IllegalArgumentException the API does not document, for " + what + ": " + e, e);
            }
        } catch (Exception | Error e) {
            fail("not a LibTpException for " + what + ": " + e, e);
        }
    }
}
