package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.bench.sim.AppendOnlyFolder;
import io.ratatosk.bench.sim.CleanUp;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A run that fails and then cannot delete the folder it made for its output (in a folder that takes no deletion): the
 * clean-up's failure was thrown instead of the run's, so the user saw "/x/new: Operation not permitted" and a stack
 * trace, not why the run failed. The run's failure is the one thrown now, the clean-up's suppressed in it. (jmh-report's
 * case is RatioTableTest's, where its results are made.)
 */
class FailedCleanUpTest {
    @TempDir
    Path dir;

    @Test
    void jmhSaysThePatternMatchingNothingNotTheFolderThatWouldNotGo() throws Exception {
        Path appendOnly = Files.createDirectory(dir.resolve("append-only"));
        Exception[] thrown = {null};
        int exit;
        try (AppendOnlyFolder undeletable = appendOnly(appendOnly)) {
            exit = execute(new JmhCommand(), thrown, "--quick", "--out", appendOnly.resolve("new/r.json").toString(),
                "NoSuchBenchmarkXyz");
        }
        assertEquals(2, exit, String.valueOf(thrown[0]));
        assertTrue(thrown[0].getMessage().contains("no benchmark matches NoSuchBenchmarkXyz"), thrown[0].getMessage());
        assertCleanUpFailureFor(thrown[0], appendOnly.resolve("new"));
    }

    static AppendOnlyFolder appendOnly(Path folder) throws Exception {
        AppendOnlyFolder undeletable = AppendOnlyFolder.make(folder);
        assumeTrue(undeletable != null, "chattr +a takes root");
        return undeletable;
    }

    /** {@code command} run on {@code args}, whatever it throws kept in {@code thrown}. */
    static int execute(Object command, Exception[] thrown, String... args) {
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        cl.setParameterExceptionHandler((e, a) -> {
            thrown[0] = e;
            return 2;
        });
        cl.setExecutionExceptionHandler((e, c, parsed) -> {
            thrown[0] = e;
            return 1;
        });
        return cl.execute(args);
    }

    static void assertCleanUpFailureFor(Exception thrown, Path folder) {
        List<CleanUp.Failed> cleanUps = CleanUp.Failed.in(thrown);
        assertEquals(1, cleanUps.size(), thrown.toString());
        assertTrue(cleanUps.get(0).getMessage().contains(folder.toString()), cleanUps.get(0).getMessage());
        assertInstanceOf(java.nio.file.FileSystemException.class, cleanUps.get(0).getCause());
    }
}
