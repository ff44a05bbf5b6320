package io.ratatosk.bench.ldbc.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvRowsTest {
    /**
     * The load's progress is the bytes read of the CSV files' sizes, but a row counted its characters and one line
     * break: LDBC's names (Jürgen, Zoë, 李) take two or three bytes a character, and a file with CRLF line ends two
     * bytes a break, so a whole load ended its bar short of 100% and a stopped one said it had read less than it had.
     */
    @Test
    void bytesReadAreTheFilesBytesWhateverItsCharactersAndLineEnds() throws IOException {
        byte[] file = ("\uFEFFid|firstName\r\n1|Jürgen\r\n2|Zoë\r\n\r\n3|李\r\n").getBytes(StandardCharsets.UTF_8);
        try (CsvRows rows = new CsvRows(new ByteArrayInputStream(file), "person_0_0.csv", List.of("id", "firstName"))) {
            int count = 0;
            while (rows.next()) {
                count++;
            }
            assertEquals(3, count);
            assertEquals(file.length, rows.bytesRead(), "every byte of the file, once read whole");
        }
    }
}
