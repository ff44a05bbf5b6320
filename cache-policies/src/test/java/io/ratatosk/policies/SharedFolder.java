package io.ratatosk.policies;

import java.nio.file.Files;
import java.nio.file.Path;

/** The shared data folder ({@code shared/anchors}, {@code shared/traces}) the reference tests replay. */
public final class SharedFolder {
    private SharedFolder() {
    }

    /**
     * {@code shared/} beside the repository (../../shared from a module), or beside any folder above;
     * {@code -Dratatosk.shared} overrides. Null when there is none: the tests that need it skip.
     */
    public static Path find() {
        String override = System.getProperty("ratatosk.shared");
        if (override != null) {
            return Path.of(override);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared");
            if (Files.isDirectory(candidate.resolve("traces/lirs"))) {
                return candidate;
            }
        }
        return null;
    }
}
