package io.ratatosk.bench.ldbc.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where an LDBC SNB data set lies: its CSV files in the "vanilla" layout ({@code static/} and
 * {@code dynamic/}, {@code |} separated, one file per partition {@code NAME_i_j.csv}) and its
 * {@code substitution_parameters/} and {@code update_streams/}. A folder on disk, or the sample shipped on the class path.
 * Paths are relative: {@code dynamic/person_0_0.csv}, {@code interactive_1_param.txt}.
 */
public interface LdbcDataSource {
    /** The names of update stream files. */
    Pattern UPDATE_STREAM = Pattern.compile("updateStream_\\d+_\\d+_(person|forum)\\.csv");

    /** The partitions of one entity or relation, e.g. ("dynamic", "person"); empty if there are none. */
    List<String> csvFiles(String folder, String baseName) throws IOException;

    InputStream openCsv(String relativePath) throws IOException;

    /** The size of a CSV file in bytes, for progress. */
    long csvSize(String relativePath) throws IOException;

    /** The substitution parameter file {@code fileName}, or null if the data set has none. */
    InputStream openParameters(String fileName) throws IOException;

    /** The full name of a CSV file, for messages. */
    String describeCsv(String relativePath);

    /**
     * The update stream files in {@code update_streams/} ({@code updateStream_i_j_person.csv} and
     * {@code updateStream_i_j_forum.csv}), by name, sorted; empty if the data set has none.
     */
    List<String> updateStreams() throws IOException;

    InputStream openUpdateStream(String fileName) throws IOException;

    /** The full name of an update stream file, for messages. */
    String describeUpdateStream(String fileName);

    /** The full name of a parameter file, for messages. */
    String describeParameters(String fileName);

    /** A short name of the data set. */
    String describe();

    /**
     * Identifies the content: a store loaded from a source with the same fingerprint holds the same
     * data. Cheap (names, sizes, modification times), not a content hash.
     */
    String fingerprint() throws IOException;

    /** The data set in folder {@code root}: {@code root/vanilla/{static,dynamic}} or {@code root/{static,dynamic}}. */
    static LdbcDataSource directory(Path root) {
        return new DirectorySource(root);
    }

    /** The LDBC SNB interactive sample shipped in the benchmarks jar (Apache 2.0, see its LICENSE.txt). */
    static LdbcDataSource sample() {
        return new ClasspathSource("ldbc/sample");
    }

    /** A folder on disk. */
    final class DirectorySource implements LdbcDataSource {
        private final Path root;
        private final Path csvRoot;

        DirectorySource(Path root) {
            this.root = root.toAbsolutePath().normalize();
            Path vanilla = this.root.resolve("vanilla");
            this.csvRoot = Files.isDirectory(vanilla) ? vanilla : this.root;
        }

        public Path root() {
            return root;
        }

        @Override
        public List<String> csvFiles(String folder, String baseName) throws IOException {
            Path dir = csvRoot.resolve(folder);
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            Pattern partition = Pattern.compile(Pattern.quote(baseName) + "_\\d+_\\d+\\.csv");
            List<String> names = new ArrayList<>();
            try (Stream<Path> list = Files.list(dir)) {
                list.map(p -> p.getFileName().toString()).filter(n -> partition.matcher(n).matches()).sorted()
                    .forEach(n -> names.add(folder + "/" + n));
            }
            return names;
        }

        @Override
        public InputStream openCsv(String relativePath) throws IOException {
            return open(csvRoot.resolve(relativePath));
        }

        @Override
        public long csvSize(String relativePath) throws IOException {
            return Files.size(csvRoot.resolve(relativePath));
        }

        @Override
        public InputStream openParameters(String fileName) throws IOException {
            Path p = root.resolve("substitution_parameters").resolve(fileName);
            return Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? open(p) : null;
        }

        @Override
        public String describeCsv(String relativePath) {
            return csvRoot.resolve(relativePath).toString();
        }

        @Override
        public List<String> updateStreams() throws IOException {
            Path dir = root.resolve("update_streams");
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            try (Stream<Path> list = Files.list(dir)) {
                return list.map(p -> p.getFileName().toString())
                    .filter(n -> UPDATE_STREAM.matcher(n).matches()).sorted().toList();
            }
        }

        @Override
        public InputStream openUpdateStream(String fileName) throws IOException {
            return open(root.resolve("update_streams").resolve(fileName));
        }

        @Override
        public String describeUpdateStream(String fileName) {
            return root.resolve("update_streams").resolve(fileName).toString();
        }

        @Override
        public String describeParameters(String fileName) {
            return root.resolve("substitution_parameters").resolve(fileName).toString();
        }

        @Override
        public String describe() {
            return root.toString();
        }

        @Override
        public String fingerprint() throws IOException {
            MessageDigest sha = sha1();
            for (String folder : List.of("static", "dynamic")) {
                Path dir = csvRoot.resolve(folder);
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> list = Files.list(dir)) {
                    for (Path p : list.sorted().toList()) {
                        // a link to nothing failed here with its bare path; the load, which opens it, says what it is
                        String stat = Files.exists(p) ? Files.size(p) + "|" + Files.getLastModifiedTime(p).toMillis()
                            : "missing";
                        String entry = folder + "/" + p.getFileName() + "|" + stat + "\n";
                        sha.update(entry.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
            }
            return "dir:" + root + ":" + HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        }
    }

    /** Resources under a class path prefix, one partition ({@code _0_0}) per file. */
    final class ClasspathSource implements LdbcDataSource {
        private final String prefix;

        ClasspathSource(String prefix) {
            this.prefix = prefix;
        }

        private String csvResource(String relativePath) {
            return prefix + "/vanilla/" + relativePath;
        }

        @Override
        public List<String> csvFiles(String folder, String baseName) {
            String name = folder + "/" + baseName + "_0_0.csv";
            return resource(csvResource(name)) != null ? List.of(name) : List.of();
        }

        private static java.net.URL resource(String name) {
            return LdbcDataSource.class.getClassLoader().getResource(name);
        }

        @Override
        public InputStream openCsv(String relativePath) throws IOException {
            InputStream in = LdbcDataSource.class.getClassLoader().getResourceAsStream(csvResource(relativePath));
            if (in == null) {
                throw new LdbcDataException("missing LDBC file: classpath:" + csvResource(relativePath));
            }
            return in;
        }

        @Override
        public long csvSize(String relativePath) throws IOException {
            java.net.URL url = resource(csvResource(relativePath));
            return url == null ? 0 : url.openConnection().getContentLengthLong();
        }

        @Override
        public InputStream openParameters(String fileName) {
            return LdbcDataSource.class.getClassLoader()
                .getResourceAsStream(prefix + "/substitution_parameters/" + fileName);
        }

        @Override
        public String describeCsv(String relativePath) {
            return "classpath:" + csvResource(relativePath);
        }

        @Override
        public List<String> updateStreams() {
            List<String> names = new ArrayList<>();
            for (String n : List.of("updateStream_0_0_forum.csv", "updateStream_0_0_person.csv")) {
                if (resource(prefix + "/update_streams/" + n) != null) {
                    names.add(n);
                }
            }
            return names;
        }

        @Override
        public InputStream openUpdateStream(String fileName) throws IOException {
            InputStream in = LdbcDataSource.class.getClassLoader()
                .getResourceAsStream(prefix + "/update_streams/" + fileName);
            if (in == null) {
                throw new LdbcDataException("missing update stream: " + describeUpdateStream(fileName));
            }
            return in;
        }

        @Override
        public String describeUpdateStream(String fileName) {
            return "classpath:" + prefix + "/update_streams/" + fileName;
        }

        @Override
        public String describeParameters(String fileName) {
            return "classpath:" + prefix + "/substitution_parameters/" + fileName;
        }

        @Override
        public String describe() {
            return "the LDBC SNB sample (classpath:" + prefix + ")";
        }

        @Override
        public String fingerprint() {
            return "classpath:" + prefix + ":v1";
        }
    }

    /**
     * {@code file} opened for reading, or an {@link LdbcDataException} naming it and why: a folder in a file's place
     * opened, and its first read failed with "Is a directory", naming no file; a link to nothing, or a file the user
     * may not read, failed with the bare path as the whole message.
     */
    private static InputStream open(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new LdbcDataException(file + ": a folder, where the LDBC layout has a file");
        }
        try {
            return Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new LdbcDataException(file + (Files.isSymbolicLink(file) ? ": a link to " + Files.readSymbolicLink(file)
                + ", which is not there" : ": no such file"));
        } catch (AccessDeniedException e) {
            throw new LdbcDataException(file + ": permission denied");
        }
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
