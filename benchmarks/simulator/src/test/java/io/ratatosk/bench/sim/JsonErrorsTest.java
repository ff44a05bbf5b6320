package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonErrorsTest {
    /** Parsed from bytes, as from a file (Jackson words a cut-off string otherwise). */
    private static String oneLine(String json) {
        ByteArrayInputStream in = new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8));
        return JsonErrors.oneLine(assertThrows(JsonProcessingException.class, () -> new ObjectMapper().readTree(in)));
    }

    @Test
    void aCutObjectSaysWhereItEndsWithoutTheStartMarkersSource() {
        assertEquals("Unexpected end-of-input: expected close marker for Object (line 2, column 1)",
            oneLine("{\n"));
    }

    @Test
    void aForeignTokenIsNamedWithItsPlace() {
        assertEquals("Unrecognized token 'root': was expecting (JSON String, Number, Array, Object or token 'null',"
            + " 'true' or 'false') (line 1, column 6)", oneLine("root:x:0:0\n"));
    }
}
