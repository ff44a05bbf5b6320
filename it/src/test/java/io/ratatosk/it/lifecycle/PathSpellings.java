package io.ratatosk.it.lifecycle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Several spellings of each file's path that all reach the same file: {@code data/f}, {@code data/./f},
 * {@code data/sub/../f}, a path relative to the working directory, {@code link/f} through a symlinked
 * directory, {@code link/sub/../f}, and a symlink to the file itself. The links are made before the
 * files exist, so the first map of a file may create it through a link. Spellings the file system
 * cannot make (no symlinks, a working directory that is itself reached through a link) are left out
 * with a note in {@link #notes()}.
 */
final class PathSpellings {
    private final Path root;
    private final Path data;
    /** {@link #data} with every link on its way resolved: where a mapping's {@code path()} must say its file is. */
    private final Path realData;
    private final Path linkedDir;
    private final boolean dirLinks;
    private final boolean fileLinks;
    private final boolean relative;
    private final List<String> notes = new ArrayList<>();

    /** Lays out {@code root/data}, {@code root/data/sub} and {@code root/link -> data}. */
    PathSpellings(Path root) throws IOException {
        this(root, true);
    }

    /** As {@link #PathSpellings(Path)}; without links when {@code links} is false. */
    PathSpellings(Path root, boolean links) throws IOException {
        this.root = root.toAbsolutePath();
        this.data = Files.createDirectories(this.root.resolve("data"));
        Files.createDirectories(data.resolve("sub"));
        this.realData = data.toRealPath();
        this.linkedDir = this.root.resolve("link");
        this.dirLinks = links && tryLink(linkedDir, data, "a symlinked directory");
        Path probe = this.root.resolve("probe.lnk");
        this.fileLinks = links && tryLink(probe, data.resolve("probe"), "a symlink to the file");
        Files.deleteIfExists(probe);
        if (!links) {
            notes.add("symlinked spellings left out on request");
        }
        Path cwd = Path.of("").toAbsolutePath();
        boolean cwdIsReal;
        try {
            cwdIsReal = cwd.toRealPath().equals(cwd) && cwd.getRoot() != null && cwd.getRoot().equals(this.root.getRoot());
        } catch (IOException e) {
            cwdIsReal = false;
        }
        this.relative = cwdIsReal;
        if (!relative) {
            notes.add("relative spelling skipped: the working directory " + cwd + " is reached through a link");
        }
    }

    private boolean tryLink(Path link, Path target, String what) {
        try {
            Files.createSymbolicLink(link, target);
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            notes.add(what + " skipped: the file system refused a symlink (" + e + ")");
            return false;
        }
    }

    /** Why some spellings are missing; empty when all are used. */
    List<String> notes() {
        return notes;
    }

    /** The real path of file {@code name}. */
    Path real(String name) {
        return data.resolve(name);
    }

    /** The path of file {@code name} with every link resolved, as {@code PagedFile.path()} must give it. */
    Path resolved(String name) {
        return realData.resolve(name);
    }

    /** Makes the per-file link for {@code name} (before the file exists) and returns every spelling of it. */
    List<Path> spellingsOf(String name) throws IOException {
        List<Path> spellings = new ArrayList<>();
        Path real = real(name);
        spellings.add(real);
        spellings.add(data.resolve(".").resolve(name));
        spellings.add(data.resolve("sub").resolve("..").resolve(name));
        if (relative) {
            spellings.add(Path.of("").toAbsolutePath().relativize(real));
        }
        if (dirLinks) {
            spellings.add(linkedDir.resolve(name));
            spellings.add(linkedDir.resolve("sub").resolve("..").resolve(name));
        }
        if (fileLinks) {
            Path link = root.resolve(name + ".lnk");
            Files.createSymbolicLink(link, real);
            spellings.add(link);
        }
        return spellings;
    }

    /** A short label for a spelling: relative to the scenario's directory, or as given when relative to the working one. */
    String label(Path spelling) {
        if (spelling.isAbsolute() && spelling.startsWith(root)) {
            return root.relativize(spelling).toString();
        }
        return "(cwd) " + spelling;
    }

    /** Deletes file {@code name} and its link. */
    void delete(String name) throws IOException {
        Files.deleteIfExists(real(name));
        Files.deleteIfExists(root.resolve(name + ".lnk"));
    }
}
