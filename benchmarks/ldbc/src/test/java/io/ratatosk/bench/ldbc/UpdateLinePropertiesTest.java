package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.update.Update;
import io.ratatosk.bench.ldbc.update.UpdateStreams;
import io.ratatosk.bench.ldbc.update.UpdateType;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Lines of an update stream, near misses of LDBC's (a type of every code and none, one column more or less, numbers
 * huge, negative, empty or words, lists and pairs cut): each is read as an update of its type, with as many fields as
 * the type has, or refused with an LdbcDataException naming the file and the line; never another exception.
 */
class UpdateLinePropertiesTest {
    @Property(tries = 500)
    void anUpdateLineIsReadAsItsTypeOrRefusedNamingTheLine(@ForAll("lines") String line) {
        Update update;
        try {
            update = UpdateStreams.parse(line, "updates.csv", 7);
        } catch (LdbcDataException e) {
            assertTrue(e.getMessage().startsWith("updates.csv:7: "), e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            throw new AssertionError("'" + line + "': " + e, e);
        }
        String[] columns = line.split("\\|", -1);
        assertEquals(UpdateType.byCode(Integer.parseInt(columns[2])), update.type(), line);
        assertEquals(columns.length - 3, update.type().fields().size(), line);
        assertEquals(Long.parseLong(columns[0]), update.scheduledStartTime(), line);
    }

    @Provide
    Arbitrary<String> lines() {
        Arbitrary<String> value = Arbitraries.oneOf(Arbitraries.longs().map(String::valueOf),
            Arbitraries.integers().between(-2, 12).map(String::valueOf),
            Arbitraries.of("", "x", "1;2", "1;", ";", "1,2012;3,2013", "1,2,3", "1;x", "99999999999999999999", " 5",
                "Jos\u00e9", "a;b;c", "\uFFFD"));
        return Arbitraries.integers().between(0, 9).flatMap(type -> {
            int fields = type >= 1 && type <= 8 ? UpdateType.byCode(type).fields().size() : 3;
            return Arbitraries.integers().between(Math.max(0, fields - 1), fields + 1).flatMap(count ->
                value.list().ofSize(count + 2).map(values -> values.get(0) + "|" + values.get(1) + "|" + type
                    + (count == 0 ? "" : "|" + String.join("|", values.subList(2, values.size())))));
        });
    }
}
