package org.libtp.examples;

import org.libtp.db.CursorIterable;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Environment;
import org.libtp.db.Entry;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.KeyRange;
import org.libtp.db.Transaction;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The main demo: bank accounts in a transactional B-tree, money moved between them by two JVM
 * processes at once, each transfer one durable transaction (two page-locked updates; deadlocks
 * between the processes are detected and the victim retried). Prints each process's throughput
 * and checks at the end that the total is what it was.
 *
 * <pre>
 * java -jar libtp-examples/target/libtp-examples.jar [directory] [seconds]
 * </pre>
 */
public final class BankDemo {
    /**
     * Durable commits (the default) with early lock release: a transfer's locks go as soon as
     * its commit record is in the log buffer, so the other teller need not wait for its force.
     */
    static final EnvironmentConfig CONFIG = EnvironmentConfig.builder().earlyLockRelease(true).build();

    static final int ACCOUNTS = 1000;
    static final long INITIAL = 1_000;

    private BankDemo() {
    }

    static byte[] account(int i) {
        return String.format("account-%05d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static long amount(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("--teller")) {
            System.exit(teller(Paths.get(args[1]), Integer.parseInt(args[2]), "child") >= 0 ? 0 : 1);
        }
        Path dir = args.length > 0 ? Files.createDirectories(Paths.get(args[0])) : Files.createTempDirectory("libtp-bank");
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.out.println("LibTP bank demo: environment " + dir.toAbsolutePath());
        try (Environment env = Environment.open(dir, CONFIG);
             Database db = env.openDatabase(null, "accounts", DatabaseConfig.builder().allowCreate(true).build())) {
            if (db.get(null, account(0)) == null) {
                try (Transaction t = env.beginTransaction()) {
                    for (int i = 0; i < ACCOUNTS; i++) {
                        db.put(t, account(i), amount(INITIAL));
                    }
                    t.commit();
                }
                System.out.printf("[parent] created %,d accounts of %,d%n", ACCOUNTS, INITIAL);
            }
            long before = total(db);
            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    BankDemo.class.getName(), "--teller", dir.toString(), Integer.toString(seconds))).inheritIO().start();
            int status;
            try {
                teller(env, db, seconds, "parent");
                if (!child.waitFor(seconds + 120L, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the child JVM did not finish within " + (seconds + 120) + " s");
                }
                status = child.exitValue();
            } finally {
                child.destroyForcibly();
            }
            if (status != 0) {
                // Killed (kill -9: 137) or failed: what it had not committed is rolled back by this
                // process's failCheck, and the total must hold all the same.
                System.out.printf("[parent] the child JVM ended with exit status %d%s; its transactions that had "
                        + "not committed are rolled back by this process%n", status, status == 137 ? " (killed)" : "");
            }
            long after = total(db);
            System.out.printf("[parent] total before %,d, after %,d: %s%n", before, after,
                    before == after ? "unchanged, as it must be" : "WRONG");
            System.out.println("[parent] B-tree: " + db.stat() + ", verify: "
                    + (db.verify().isEmpty() ? "ok" : db.verify()));
            if (before != after || status != 0 && status != 137) {
                System.exit(1);
            }
        }
        System.out.println("LibTP bank demo: done");
    }

    static long total(Database db) {
        try (CursorIterable accounts = db.entries(null, KeyRange.all())) {
            long sum = 0;
            for (Entry e : accounts) {
                sum += amount(e.data());
            }
            return sum;
        }
    }

    static int teller(Path dir, int seconds, String who) {
        try (Environment env = Environment.open(dir, CONFIG);
             Database db = env.openDatabase(null, "accounts", DatabaseConfig.defaults())) {
            return teller(env, db, seconds, who);
        }
    }

    /** Transfers for {@code seconds}; returns the number committed. */
    static int teller(Environment env, Database db, int seconds, String who) {
        Random rnd = new Random();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int commits = 0;
        int[] attempts = {0};
        while (System.nanoTime() < end) {
            int a = rnd.nextInt(ACCOUNTS);
            int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long x = 1 + rnd.nextInt(100);
            // Begins, runs, commits; a deadlock victim is aborted and run again.
            env.runInTransaction(t -> {
                attempts[0]++;
                // update: read-modify-write in one step, the page write-locked from the start
                // (a get then a put would make two tellers deadlock on the lock upgrade)
                db.update(t, account(a), v -> amount(amount(v) - x));
                db.update(t, account(b), v -> amount(amount(v) + x));
            });
            commits++;
        }
        int deadlocks = attempts[0] - commits;
        System.out.printf("[%s pid %d] %,d transfers in %d s = %,.0f durable transactions/s (%d retried by runInTransaction after a deadlock)%n",
                who, ProcessHandle.current().pid(), commits, seconds, commits / (double) seconds, deadlocks);
        return commits;
    }
}
