package io.ratatosk.bench.ldbc.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * An LDBC CSV file of random rows (numbers huge, negative, signed or words, a column more or less, blank lines, a byte
 * order mark, CRLF or CR line ends, bytes that are no UTF-8): CsvRows reads exactly the rows an independent reading of
 * its lines finds, or stops with an LdbcDataException naming the file and the first bad line; never another exception.
 */
class CsvRowsPropertiesTest {
    private static final List<String> HEADER = List.of("id", "name", "creationDate");

    @Property(tries = 150)
    void rowsAreReadAsTheirLinesSayOrRefusedAtTheFirstBadLine(@ForAll("rows") List<String> rows, @ForAll("breaks") String lineBreak,
                                                              @ForAll boolean bom) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        if (bom) {
            bytes.write(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});
        }
        bytes.write(String.join("|", HEADER).getBytes(StandardCharsets.UTF_8));
        for (String row : rows) {
            bytes.write(lineBreak.getBytes(StandardCharsets.US_ASCII));
            bytes.write(row.getBytes(StandardCharsets.ISO_8859_1)); // \u00e9 becomes the byte e9: no UTF-8
        }
        List<String> expected = new ArrayList<>();
        long badLine = 0;
        for (int i = 0; i < rows.size() && badLine == 0; i++) {
            String row = rows.get(i);
            if (row.isEmpty()) {
                continue;
            }
            String[] columns = row.split("\\|", -1);
            if (row.indexOf('\u00e9') >= 0 || columns.length != 3 || !isLong(columns[0]) || !isLong(columns[2])) {
                badLine = i + 2;
            } else {
                expected.add(Long.parseLong(columns[0]) + "|" + columns[1] + "|" + Long.parseLong(columns[2]));
            }
        }
        List<String> read = new ArrayList<>();
        try (CsvRows csv = new CsvRows(new ByteArrayInputStream(bytes.toByteArray()), "f.csv", HEADER)) {
            while (csv.next()) {
                read.add(csv.number(0) + "|" + csv.field(1) + "|" + csv.number(2));
            }
            assertEquals(0, badLine, "read although line " + badLine + " is bad: " + rows);
            assertEquals(expected, read);
        } catch (LdbcDataException e) {
            assertTrue(badLine > 0, "refused good rows " + rows + ": " + e.getMessage());
            assertTrue(e.getMessage().startsWith("f.csv:" + badLine + ": "), "at line " + badLine + ": " + e.getMessage());
            assertEquals(expected.subList(0, read.size()), read);
        }
    }

    private static boolean isLong(String text) {
        return text.matches("[+-]?[0-9]+") && new BigInteger(text).bitLength() < 64;
    }

    @Provide
    Arbitrary<String> breaks() {
        return Arbitraries.of("\n", "\r\n", "\r");
    }

    @Provide
    Arbitrary<List<String>> rows() {
        Arbitrary<String> number = Arbitraries.oneOf(Arbitraries.longs().map(String::valueOf),
            Arbitraries.of("", "-1", "+7", "99999999999999999999", "x", " 5", "1.5", "0x10"));
        Arbitrary<String> text = Arbitraries.of("", "Ana", "Jos\u00e9", "a b", ";", "x,y");
        Arbitrary<String> row = Arbitraries.oneOf(
            net.jqwik.api.Combinators.combine(number, text, number).as((a, b, c) -> a + "|" + b + "|" + c),
            net.jqwik.api.Combinators.combine(number, text).as((a, b) -> a + "|" + b),
            net.jqwik.api.Combinators.combine(number, text, number).as((a, b, c) -> a + "|" + b + "|" + c + "|"),
            Arbitraries.of(""));
        return row.list().ofMaxSize(20);
    }
}
