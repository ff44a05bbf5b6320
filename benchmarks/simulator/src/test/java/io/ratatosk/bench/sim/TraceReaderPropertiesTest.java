package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * Every trace format reader, fed what a damaged or wrong file holds: random bytes, truncated compressed streams, text
 * lines of random numbers, signs, stars, blanks, CR, byte order marks and bytes that are no ASCII. Each reads the file
 * or refuses it with a {@link TraceFormatException} of one line naming the file, never another exception; and what the
 * text readers read is what an independent reading of the lines says.
 */
class TraceReaderPropertiesTest {
    private final Path dir = newFolder();

    private static Path newFolder() {
        try {
            return Files.createTempDirectory("trace-properties");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterProperty
    void deleteFolder() throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 100)
    void randomBytesInAnyFormatAndCompressionAreReadOrRefusedNamingTheFile(
        @ForAll @Size(max = 3000) byte[] bytes, @ForAll TraceFormat format, @ForAll("compressions") String compression,
        @ForAll @IntRange(min = 0, max = 100) int cutPercent) throws IOException {
        byte[] stored = compress(bytes, compression);
        stored = java.util.Arrays.copyOf(stored, stored.length - stored.length * cutPercent / 400); // cut in a quarter of the tries
        Path file = dir.resolve("t-" + System.nanoTime() + ".bin");
        Files.write(file, stored);
        readOrRefused(file, format);
    }

    /** LIRS lines: keys (huge, negative, signed), stars, blanks, CR, BOMs and bytes that are no ASCII. */
    @Property(tries = 100)
    void lirsTextIsReadAsItsLinesSayOrRefusedNamingTheLine(@ForAll("lirsLines") List<String> lines,
                                                           @ForAll boolean crlf) throws IOException {
        String text = String.join(crlf ? "\r\n" : "\n", lines);
        Path file = dir.resolve("t-" + System.nanoTime() + ".trace");
        Files.write(file, text.getBytes(StandardCharsets.ISO_8859_1));
        List<Long> expected = new ArrayList<>();
        int badLine = 0;
        for (int i = 0; i < lines.size() && badLine == 0; i++) {
            String s = lines.get(i).strip();
            if (s.isEmpty() || s.contains("*")) {
                continue;
            }
            if (s.matches("[+-]?[0-9]+") && new java.math.BigInteger(s).bitLength() < 64) {
                expected.add(Long.parseLong(s));
            } else {
                badLine = i + 1;
            }
        }
        Trace trace = readOrRefused(file, TraceFormat.LIRS);
        if (badLine > 0 || expected.isEmpty()) {
            assertTrue(trace == null, "read although " + (badLine > 0 ? "line " + badLine + " is no key" : "no key"));
        } else {
            assertTrue(trace != null, "refused a trace of keys " + expected);
            assertArrayEquals(denseIds(expected), trace.keys());
        }
    }

    /** ARC lines: start and count (huge, negative, zero), missing fields, extra fields, blanks. */
    @Property(tries = 100)
    void arcTextIsReadAsItsLinesSayOrRefused(@ForAll("arcLines") List<String> lines) throws IOException {
        Path file = dir.resolve("t-" + System.nanoTime() + ".lis");
        Files.write(file, String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1));
        List<Long> expected = new ArrayList<>();
        boolean bad = false;
        for (String line : lines) {
            String[] fields = line.strip().split("\\s+");
            if (line.isBlank()) {
                continue;
            }
            if (fields.length < 2 || !fields[0].matches("[+-]?[0-9]+") || !fields[1].matches("[+-]?[0-9]+")
                || new java.math.BigInteger(fields[0]).bitLength() >= 64 || new java.math.BigInteger(fields[1]).bitLength() >= 64) {
                bad = true;
                break;
            }
            long start = Long.parseLong(fields[0]);
            long count = Long.parseLong(fields[1]);
            if (count < 0 || count > ArcRangeDecoder.MAX_COUNT || count > 0 && java.math.BigInteger.valueOf(start)
                .add(java.math.BigInteger.valueOf(count - 1)).bitLength() >= 64) {
                bad = true;
                break;
            }
            for (long k = 0; k < count; k++) {
                expected.add(start + k);
            }
        }
        Trace trace = readOrRefused(file, TraceFormat.ARC);
        if (bad || expected.isEmpty()) {
            assertTrue(trace == null, "read although a line is bad or there is no request: " + lines);
        } else {
            assertTrue(trace != null, "refused " + lines);
            assertArrayEquals(denseIds(expected), trace.keys());
        }
    }

    @Provide
    Arbitrary<String> compressions() {
        return Arbitraries.of("none", "gzip", "zstd", "xz", "bzip2");
    }

    @Provide
    Arbitrary<List<String>> lirsLines() {
        Arbitrary<String> key = Arbitraries.oneOf(Arbitraries.longs().map(String::valueOf),
            Arbitraries.integers().between(0, 50).map(String::valueOf),
            Arbitraries.strings().numeric().ofMinLength(18).ofMaxLength(30),
            Arbitraries.integers().between(0, 50).map(i -> "+" + i));
        Arbitrary<String> other = Arbitraries.of("", " ", "*", " * marker", "\uFEFF1", "\u00ef\u00bb\u00bf7", "\u00e912",
            "1 2", "x", "\t3\t", "0x10", "1e3", "\u0000", "\u001a");
        Arbitrary<String> line = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, key), net.jqwik.api.Tuple.of(1, other));
        return line.list().ofMaxSize(30);
    }

    @Provide
    Arbitrary<List<String>> arcLines() {
        Arbitrary<String> number = Arbitraries.oneOf(Arbitraries.integers().between(-3, 20).map(String::valueOf),
            Arbitraries.longs().map(String::valueOf), Arbitraries.of("9223372036854775807", "9223372036854775806",
                "99999999999999999999", "1048577", "x", "1.5"));
        Arbitrary<String> line = Arbitraries.oneOf(
            net.jqwik.api.Combinators.combine(number, number).as((a, b) -> a + " " + b + " 0 1"),
            net.jqwik.api.Combinators.combine(number, number).as((a, b) -> "\t" + a + "\t" + b),
            number, Arbitraries.of("", "  "));
        return line.list().ofMaxSize(12);
    }

    /** The trace read, or null where it was refused as it must be: a TraceFormatException, one line, naming the file. */
    private static Trace readOrRefused(Path file, TraceFormat format) {
        try {
            return TraceReader.read(file, format);
        } catch (TraceFormatException e) {
            String message = e.getMessage();
            assertTrue(message.startsWith(file + ": "), message);
            assertTrue(message.lines().count() == 1, message);
            return null;
        } catch (Exception e) {
            throw new AssertionError("not a TraceFormatException naming " + file + ": " + e, e);
        }
    }

    private static int[] denseIds(List<Long> keys) {
        Map<Long, Integer> ids = new HashMap<>();
        int[] dense = new int[keys.size()];
        for (int i = 0; i < dense.length; i++) {
            dense[i] = ids.computeIfAbsent(keys.get(i), k -> ids.size());
        }
        return dense;
    }

    private static byte[] compress(byte[] data, String how) throws IOException {
        return switch (how) {
            case "gzip" -> TraceFiles.gzip(data);
            case "zstd" -> TraceFiles.zstd(data);
            case "xz" -> TraceFiles.xz(data);
            case "bzip2" -> TraceFiles.bzip2(data);
            default -> data;
        };
    }
}
