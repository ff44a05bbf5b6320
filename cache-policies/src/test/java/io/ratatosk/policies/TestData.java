package io.ratatosk.policies;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the data the reference tests replay: first the small public files shipped in the repository
 * ({@value #IN_REPOSITORY}: the LIRS traces and the reference figures), then the shared folder for
 * the large traces, which stay optional: {@code -Dratatosk.shared=DIR} (or {@code RATATOSK_SHARED}),
 * else {@code shared/} beside the repository or beside a folder above it (a git worktree lives one
 * level deeper). Paths are relative to either folder: {@code traces/lirs/cs.trace.gz},
 * {@code anchors/refsim-public.txt}. The one locator of every module's tests (cache-policies' test jar).
 */
public final class TestData {
    /** The repository's copy, relative to the repository root. */
    public static final String IN_REPOSITORY = "cache-policies/src/test/resources/testdata";

    private TestData() {
    }

    /** The folders searched, in order: the repository's copy, then the shared folder, where found. */
    public static List<Path> folders() {
        List<Path> folders = new ArrayList<>();
        repositoryCopy().ifPresent(folders::add);
        sharedFolder().ifPresent(folders::add);
        return folders;
    }

    /** The file at {@code relative} in the first folder that has it. */
    public static Optional<Path> find(String relative) {
        for (Path folder : folders()) {
            Path file = folder.resolve(relative);
            if (Files.isRegularFile(file)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    /** The first file named {@code fileName} anywhere under a folder's {@code traces/}: the anchors name traces so. */
    public static Optional<Path> findTrace(String fileName) {
        for (Path folder : folders()) {
            Path traces = folder.resolve("traces");
            if (!Files.isDirectory(traces)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(traces)) {
                Optional<Path> file = walk.filter(p -> p.getFileName().toString().equals(fileName))
                    .filter(Files::isRegularFile).findFirst();
                if (file.isPresent()) {
                    return file;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Optional.empty();
    }

    /** As {@link #find}; without the file the calling test is skipped, with a message naming it. */
    public static Path require(String relative) {
        Optional<Path> file = find(relative);
        Assumptions.assumeTrue(file.isPresent(), () -> missing(relative));
        return file.get();
    }

    /** As {@link #findTrace}; without the file the calling test is skipped, with a message naming it. */
    public static Path requireTrace(String fileName) {
        Optional<Path> file = findTrace(fileName);
        Assumptions.assumeTrue(file.isPresent(), () -> missing("traces/**/" + fileName));
        return file.get();
    }

    private static String missing(String relative) {
        return "needs " + relative + ", which is in none of " + folders() + " (the large traces come with the shared"
            + " folder: ../shared beside the repository, or -Dratatosk.shared=DIR)";
    }

    private static Optional<Path> repositoryCopy() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(IN_REPOSITORY);
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> sharedFolder() {
        String configured = System.getProperty("ratatosk.shared", System.getenv("RATATOSK_SHARED"));
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(Files::isDirectory);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared");
            if (Files.isDirectory(candidate.resolve("traces"))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
