package org.libtp.tools;

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
import org.libtp.core.LibTpException;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import picocli.CommandLine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the dump format reader and {@code libtp load} (jqwik): valid dumps (btree and recno,
 * bytevalue and print, with and without record numbers) with lines deleted, repeated, replaced
 * by hostile header or item lines, characters changed, the text cut short; and random text.
 * {@link DumpFormat}'s parsers answer with results or a {@link Tools.ToolException}; a load
 * ends with status 0, or with a message from a {@link Tools.ToolException}, a
 * {@link LibTpException} or picocli's usage error — never another exception (which the command
 * line would print as its class name) — and within a time limit.
 *
 * <p>Each load opens the environment (about 0.2 s), so loads are few; the parser property is
 * cheap and runs many tries. Tries: as below in {@code mvn verify}, 100 times more under
 * {@code -Pstress} ({@link FuzzTries}). jqwik prints the seed of a failing run; replay with
 * {@code @Property(seed = "...")}. Crash inputs found are kept as {@code @Example}s.
 */
@AddLifecycleHook(FuzzTries.class)
class DumpFuzzTest {
    private static Path root;
    private static Path home;
    private static final AtomicInteger N = new AtomicInteger();

    @BeforeContainer
    static void create() throws IOException {
        root = Files.createTempDirectory("dump-fuzz");
        home = Files.createDirectory(root.resolve("env"));
        Environment.open(home, EnvironmentConfig.builder().pageSize(512).cacheBytes(64 * 512).build()).close();
    }

    @AfterContainer
    static void delete() throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static String hex(String s) {
        return DumpFormat.encode(s.getBytes(StandardCharsets.ISO_8859_1), false);
    }

    /** A valid dump of a few records, drawn from {@code r}. */
    static List<String> validDump(Random r) {
        List<String> l = new ArrayList<>();
        boolean print = r.nextBoolean();
        int kind = r.nextInt(3);
        l.add("VERSION=3");
        l.add("format=" + (print ? "print" : "bytevalue"));
        l.add("type=" + (kind == 0 ? "btree" : "recno"));
        l.add("database=d" + r.nextInt(4));
        l.add("db_pagesize=512");
        if (kind > 0) {
            l.add("re_len=8");
            l.add("re_pad=0x20");
        }
        if (kind == 2) {
            l.add("keys=1");
        }
        l.add("HEADER=END");
        for (int i = 1; i <= 1 + r.nextInt(5); i++) {
            byte[] v = new byte[kind > 0 ? 1 + r.nextInt(8) : r.nextInt(20)];
            r.nextBytes(v);
            if (kind != 1) {
                byte[] k = kind == 2 ? Integer.toString(i).getBytes(StandardCharsets.US_ASCII)
                        : ("k" + r.nextInt(100)).getBytes(StandardCharsets.US_ASCII);
                l.add(DumpFormat.encode(k, print));
            }
            l.add(DumpFormat.encode(v, print));
        }
        l.add("DATA=END");
        return l;
    }

    static final String[] HOSTILE = {"VERSION=2", "VERSION=", "format=print", "format=bytevalue", "type=hash",
        "type=recno", "type=btree", "database=", "database=../x", "database=a/b", "database=" + "n".repeat(150),
        "database=__libtp.files", "re_len=", "re_len=abc", "re_len=-1", "re_len=0", "re_len=99999999999",
        "re_len=100000", "re_pad=", "re_pad=0xzz", "re_pad=0x", "keys=1", "keys=0", "db_pagesize=abc", "HEADER=END",
        "DATA=END", "", " ", "  ", " zz", " 0", " \\", " \\4", " \\zz", " \\\\", " é", " \u1234", "=", "x=y",
        "no equals sign", hex("0"), hex("-1"), hex("99999999999"), hex("9223372036854775808"), hex("4294967296"),
        hex("1000000"), hex("abc"), hex("")};

    @Provide
    Arbitrary<String> dumps() {
        Arbitrary<String> mutated = Arbitraries.longs().map(seed -> {
            Random r = new Random(seed);
            List<String> l = validDump(r);
            if (r.nextInt(3) == 0) {
                l.addAll(validDump(r)); // a second section
            }
            for (int i = r.nextInt(4); i >= 0; i--) {
                int at = r.nextInt(l.size() + 1);
                switch (r.nextInt(6)) {
                    case 0 -> {
                        if (at < l.size()) {
                            l.remove(at);
                        }
                    }
                    case 1 -> {
                        if (at < l.size()) {
                            l.add(at, l.get(at));
                        }
                    }
                    case 2, 3 -> l.add(at, HOSTILE[r.nextInt(HOSTILE.length)]);
                    case 4 -> {
                        if (at < l.size()) {
                            l.set(at, HOSTILE[r.nextInt(HOSTILE.length)]);
                        }
                    }
                    default -> {
                        if (at < l.size() && !l.get(at).isEmpty()) {
                            char[] c = l.get(at).toCharArray();
                            c[r.nextInt(c.length)] = (char) (r.nextBoolean() ? 32 + r.nextInt(95) : r.nextInt(256));
                            l.set(at, new String(c));
                        }
                    }
                }
            }
            String s = String.join("\n", l) + "\n";
            return r.nextInt(8) == 0 ? s.substring(0, r.nextInt(s.length() + 1)) : s;
        });
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(9, mutated),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMaxLength(200).map(x -> "VERSION=3\n" + x)));
    }

    /** The parsers alone (cheap): headers, types, pads, item lines. */
    @Property(tries = 2000)
    void parsers(@ForAll("dumps") String dump) {
        try {
            BufferedReader in = new BufferedReader(new StringReader(dump));
            int[] lineNo = {0};
            java.util.Map<String, String> h;
            while ((h = DumpFormat.readHeader(in, lineNo)) != null) {
                DumpFormat.type(h, lineNo[0]);
                DumpFormat.pad(h);
                boolean print = "print".equals(h.get("format"));
                String line;
                while ((line = in.readLine()) != null && !line.equals("DATA=END")) {
                    lineNo[0]++;
                    byte[] b = DumpFormat.decode(line, print, "line " + lineNo[0]);
                    // what was read is what the writer would write back
                    assertArrayEquals(b, DumpFormat.decode(DumpFormat.encode(b, print), print, "re-encoded"));
                }
            }
        } catch (Tools.ToolException expected) {
            // a message naming the line
        } catch (Throwable t) {
            fail("not a ToolException for:\n" + dump + "\n" + t, t);
        }
    }

    /** The whole load, through the command line, into one environment. */
    @Property(tries = 20)
    void load(@ForAll("dumps") String dump) throws IOException {
        loads(dump);
    }

    // Regression inputs: crashes the properties found or that reading LoadCommand showed, kept once fixed.

    /** Before: IllegalArgumentException "database d1 is a RECNO database, not BTREE" on the command line. */
    @Example
    void sectionOfAnotherTypeThanTheDatabase() throws IOException {
        loads("VERSION=3\ntype=recno\ndatabase=t1\nre_len=4\nHEADER=END\n 61626364\nDATA=END\n");
        loads("VERSION=3\ntype=btree\ndatabase=t1\nHEADER=END\n 61\n 62\nDATA=END\n");
        loads("VERSION=3\ntype=btree\ndatabase=a/b\nHEADER=END\n 61\n 62\nDATA=END\n");
        loads("VERSION=3\ntype=recno\ndatabase=t2\nre_len=-1\nHEADER=END\n 61\nDATA=END\n");
    }

    /** Before: NumberFormatException "For input string: \"abc\"". */
    @Example
    void reLenThatIsNoNumber() throws IOException {
        loads("VERSION=3\ntype=recno\ndatabase=t3\nre_len=abc\nHEADER=END\n 61\nDATA=END\n");
    }

    /** Before: appended and deleted 10^11 records, one by one (no end in sight). */
    @Example
    void recordNumberFarBeyondTheEnd() throws IOException {
        loads("VERSION=3\ntype=recno\ndatabase=t4\nre_len=4\nkeys=1\nHEADER=END\n" + hex("99999999999")
                + "\n 61626364\nDATA=END\n");
    }

    static void loads(String dump) throws IOException {
        Path f = root.resolve("d" + N.incrementAndGet() + ".dump");
        Files.write(f, dump.getBytes(StandardCharsets.UTF_8)); // read back as ISO-8859-1, as load reads
        Throwable[] thrown = {null};
        StringWriter err = new StringWriter();
        int status = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            CommandLine c = Libtp.commandLine();
            c.setOut(new PrintWriter(new StringWriter(), true));
            c.setErr(new PrintWriter(err, true));
            c.setExecutionExceptionHandler((e, cmd, parsed) -> {
                thrown[0] = e;
                return Libtp.UNUSABLE;
            });
            return c.execute("load", home.toString(), "-f", f.toString(), "-q");
        }, () -> "load did not end for:\n" + dump);
        Files.delete(f);
        Throwable t = thrown[0];
        if (t != null && !(t instanceof Tools.ToolException) && !(t instanceof LibTpException)) {
            fail("load ended in " + t + " (not a ToolException or LibTpException) for:\n" + dump, t);
        }
        assertTrue(status == 0 || status == Libtp.UNUSABLE || status == 2, "status " + status + "; " + err);
    }
}
