package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputFileTest {
    @TempDir
    Path dir;

    @Test
    void aReplacedReportIsWholeOrTheOldOne() throws IOException {
        Path report = dir.resolve("summary.json");
        OutputFile.replace("--out", report, file -> Files.writeString(file, "{\"first\": 1}"));
        assertEquals("{\"first\": 1}", Files.readString(report));

        // A write that stops half way (a full disk, a run stopped): the report before it stays, and nothing else.
        IOException e = assertThrows(IOException.class, () -> OutputFile.replace("--out", report, file -> {
            Files.writeString(file, "{\"sec");
            throw new IOException("No space left on device");
        }));
        assertTrue(e.getMessage().contains("cannot write --out " + report), e.getMessage());
        assertEquals("{\"first\": 1}", Files.readString(report));
        assertEquals(List.of(report), listing());

        OutputFile.replace("--out", report, file -> {
            assertTrue(file.getFileName().toString().endsWith("summary.json"), "the format is read from the name's end: " + file);
            Files.writeString(file, "{\"second\": 2}");
        });
        assertEquals("{\"second\": 2}", Files.readString(report));
        assertEquals(List.of(report), listing());
    }

    /** A run killed while it wrote the report (no finally block runs) left its file of its own there for ever. */
    @Test
    void aKilledRunsLeftoverIsRemovedByTheNextReplaceAndALiveOnesIsNot() throws IOException, InterruptedException {
        Process gone;
        try (ChildProcess ended = ChildProcess.start(new ProcessBuilder("true"))) {
            ended.awaitExit(ChildProcess.DEADLINE);
            gone = ended.process();
        }
        Path report = dir.resolve("summary.json");
        Path killed = Files.writeString(dir.resolve("." + gone.pid() + "-1-summary.json"), "{\"cut");
        Path live = Files.writeString(dir.resolve("." + ProcessHandle.current().pid() + "-999999-summary.json"), "{");
        Path other = Files.writeString(dir.resolve(".x-1-summary.json"), "mine");
        Path otherReport = Files.writeString(dir.resolve("." + gone.pid() + "-1-chart.svg"), "<");
        OutputFile.replace("--out", report, file -> Files.writeString(file, "{}"));
        assertFalse(Files.exists(killed), "the killed run's file is gone");
        assertTrue(Files.exists(live) && Files.exists(other) && Files.exists(otherReport), listing().toString());
    }

    /**
     * A name near a file name's limit of 255 bytes passed check, which creates the file itself, and failed at the end of
     * the run: the file of its own, .PID-THREAD-NAME, was too long ("File name too long"), and the report was lost. Its
     * name now keeps NAME's end, the format's ending with it; a killed run's such file is removed as any other.
     */
    @Test
    void aNameNearTheFileSystemsLimitIsReplacedWhole() throws IOException, InterruptedException {
        for (String name : List.of("r".repeat(245) + ".json", "\u00e9".repeat(125) + ".json")) { // 250 and 255 bytes
            Path report = dir.resolve(name);
            OutputFile.check("--json", report);
            OutputFile.replace("--json", report, file -> {
                assertTrue(file.getFileName().toString().endsWith(".json"), file.toString());
                Files.writeString(file, "{}");
            });
            assertEquals("{}", Files.readString(report));
            assertEquals(List.of(report), listing());
            Process gone;
            try (ChildProcess ended = ChildProcess.start(new ProcessBuilder("true"))) {
                ended.awaitExit(ChildProcess.DEADLINE);
                gone = ended.process();
            }
            Path killed = Files.writeString(dir.resolve("." + gone.pid() + "-1" + OutputFile.ownSuffix(report)), "{\"cut");
            OutputFile.replace("--json", report, file -> Files.writeString(file, "{}"));
            assertFalse(Files.exists(killed), "the killed run's file is gone");
            Files.delete(report);
        }
    }

    @Test
    void onlyNamesOfTheOwnFilesPattern() {
        assertEquals(12, OutputFile.leftoverPid(".12-3-a.json", "-a.json"));
        assertEquals(-1, OutputFile.leftoverPid("12-3-a.json", "-a.json"));
        assertEquals(-1, OutputFile.leftoverPid(".12-a.json", "-a.json"));
        assertEquals(-1, OutputFile.leftoverPid(".12--a.json", "-a.json"));
        assertEquals(-1, OutputFile.leftoverPid(".-3-a.json", "-a.json"));
        assertEquals(-1, OutputFile.leftoverPid(".1x-3-a.json", "-a.json"));
        assertEquals(-1, OutputFile.leftoverPid(".99999999999999999999-3-a.json", "-a.json"));
    }

    @Test
    void aLinkIsWrittenThroughNotReplaced() throws IOException {
        Path target = Files.writeString(dir.resolve("elsewhere.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("report.json"), target);
        OutputFile.replace("--json", link, file -> Files.writeString(file, "new"));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("new", Files.readString(target));
    }

    /**
     * An empty path (a script's unset variable) is Java's current folder: ldbc --out "" and --data-cache "" wrote the
     * report, the charts and the loaded store there without a word, and sim --json "" said it "is a folder". A file's
     * refusal is not told to give '.', which is refused as a folder ("--json . is a folder; name a file").
     */
    @Test
    void anEmptyPathIsRefusedNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> OutputFile.check("--json", Path.of(""), List.of()));
        assertEquals("--json '' names no file; name the file to write", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> OutputFile.createFolder("--out", Path.of("")));
        assertEquals("--out '' names no folder ('.' for the current folder)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> OutputFile.refuseFile("--out", Path.of("")));
        assertEquals("--out '' names no folder ('.' for the current folder)", e.getMessage());
    }

    /** A file where the output's folder goes was named by its exception's class and bare path. */
    @Test
    void aFileWhereTheFolderGoesIsSaidInWords() throws IOException {
        Path file = Files.writeString(dir.resolve("trace.gz"), "a trace");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> OutputFile.check("--json", file.resolve("r.json"), List.of()));
        assertEquals("--json: cannot create the folder " + file + ": " + file + " is a file, in the way", e.getMessage());
    }

    private List<Path> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }
}
