package io.ratatosk.bench.sim;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the project's shared folder (traces, anchors): {@code ../shared} beside the repository, or
 * beside a folder above it (a git worktree lives one level deeper), or {@code -Dratatosk.shared}.
 */
final class SharedData {
    private SharedData() {
    }

    static Optional<Path> folder() {
        String configured = System.getProperty("ratatosk.shared", System.getenv("RATATOSK_SHARED"));
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(SharedData::looksShared);
        }
        Path repository = Path.of("").toAbsolutePath().getParent(); // tests run in the module folder
        for (Path p = repository == null ? null : repository.getParent(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared");
            if (looksShared(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static boolean looksShared(Path p) {
        return Files.isDirectory(p.resolve("anchors")) && Files.isDirectory(p.resolve("traces"));
    }
}
