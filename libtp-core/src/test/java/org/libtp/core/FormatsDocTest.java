package org.libtp.core;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code docs/formats.md} against the code: the offsets of a region's table (its top-level rows
 * with a numeric offset) are exactly the values of the layout's {@code OFF_*} constants, and the
 * layout version in the heading is the code's. A field added, moved or removed in one and not the
 * other fails here. (The regions' entry layouts, indented under their rows, are asserted by each
 * manager's own layout test.)
 */
class FormatsDocTest {
    private static final Pattern ROW = Pattern.compile("^ {1,8}(\\d+) +(\\S+) +\\S.*$");

    /** The top-level offsets of the table under the heading that starts with {@code heading}. */
    static TreeSet<Long> documented(String heading) throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..", "docs", "formats.md"));
        int i = 0;
        while (i < lines.size() && !lines.get(i).startsWith(heading)) {
            i++;
        }
        assertTrue(i < lines.size(), "docs/formats.md has a section '" + heading + "'");
        while (!lines.get(i).startsWith("```")) {
            i++;
        }
        TreeSet<Long> out = new TreeSet<>();
        for (i++; !lines.get(i).startsWith("```"); i++) {
            Matcher m = ROW.matcher(lines.get(i));
            if (m.matches()) {
                out.add(Long.parseLong(m.group(1)));
            }
        }
        return out;
    }

    /** The values of {@code type}'s static {@code OFF_*} constants. */
    static TreeSet<Long> constants(Class<?> type) throws Exception {
        TreeSet<Long> out = new TreeSet<>();
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getName().startsWith("OFF_")
                    && (f.getType() == long.class || f.getType() == int.class)) {
                f.setAccessible(true);
                out.add(((Number) f.get(null)).longValue());
            }
        }
        return out;
    }

    static int version(Class<?> type) throws Exception {
        Field f = type.getDeclaredField("LAYOUT_VERSION");
        f.setAccessible(true);
        return f.getInt(null);
    }

    private static void check(String heading, Class<?> type) throws Exception {
        assertEquals(constants(type), documented(heading), heading + ": the offsets of docs/formats.md's table and of "
                + type.getSimpleName() + "'s OFF_ constants");
        String line = Files.readAllLines(Path.of("..", "docs", "formats.md")).stream().filter(l -> l.startsWith(heading))
                .findFirst().orElseThrow();
        assertTrue(line.contains("layout version " + version(type) + ")"), line + " names layout version " + version(type));
    }

    @Test
    void theLogRegionTable() throws Exception {
        check("## Log region", Class.forName("org.libtp.core.log.LogLayout"));
    }

    @Test
    void theTransactionRegionTable() throws Exception {
        check("## Transaction region", Class.forName("org.libtp.core.txn.TxnLayout"));
    }

    @Test
    void theBufferRegionTable() throws Exception {
        check("## Buffer region", Class.forName("org.libtp.core.buffer.BufferLayout"));
    }

    /** The fixed region "lock" (the tables region's offsets are derived, named in the doc). */
    @Test
    void theLockRegionTable() throws Exception {
        check("## Lock regions", Class.forName("org.libtp.core.lock.LockLayout"));
    }
}
