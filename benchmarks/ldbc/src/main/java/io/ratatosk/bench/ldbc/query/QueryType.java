package io.ratatosk.bench.ldbc.query;

import java.util.List;

/**
 * The LDBC SNB Interactive reads the runner executes, with their parameter names as in the
 * substitution files ({@code interactive_N_param.txt}); semantics in docs/ldbc.md.
 */
public enum QueryType {
    IS1(0, "personId"),
    IS2(0, "personId"),
    IS3(0, "personId"),
    IS4(0, "messageId"),
    IS5(0, "messageId"),
    IS6(0, "messageId"),
    IS7(0, "messageId"),
    IC1(1, "personId", "firstName"),
    IC2(2, "personId", "maxDate"),
    IC3(3, "personId", "startDate", "durationDays", "countryXName", "countryYName"),
    IC4(4, "personId", "startDate", "durationDays"),
    IC5(5, "personId", "minDate"),
    IC6(6, "personId", "tagName"),
    IC7(7, "personId"),
    IC8(8, "personId"),
    IC9(9, "personId", "maxDate"),
    IC10(10, "personId", "month"),
    IC11(11, "personId", "countryName", "workFromYear"),
    IC12(12, "personId", "tagClassName"),
    IC13(13, "person1Id", "person2Id"),
    IC14(14, "person1Id", "person2Id");

    /** The complex reads, in the order the workload first runs each once. */
    public static final List<QueryType> COMPLEX = List.of(IC1, IC2, IC3, IC4, IC5, IC6, IC7, IC8, IC9, IC10, IC11,
        IC12, IC13, IC14);
    public static final List<QueryType> PERSON_SHORT = List.of(IS1, IS2, IS3);
    public static final List<QueryType> MESSAGE_SHORT = List.of(IS4, IS5, IS6, IS7);

    private final int interactiveNumber;
    private final List<String> parameters;

    QueryType(int interactiveNumber, String... parameters) {
        this.interactiveNumber = interactiveNumber;
        this.parameters = List.of(parameters);
    }

    /** N of {@code interactive_N_param.txt}; 0 for the short reads, which have no parameter file. */
    public int interactiveNumber() {
        return interactiveNumber;
    }

    public String parameterFile() {
        return "interactive_" + interactiveNumber + "_param.txt";
    }

    /** Parameter names in order; see {@link #isNumeric} for which hold numbers. */
    public List<String> parameters() {
        return parameters;
    }

    /**
     * True for parameters that hold numbers: ids and dates (names ending in Id or Date) and the plain
     * counts durationDays, month and workFromYear; the rest are strings.
     */
    public static boolean isNumeric(String parameter) {
        return parameter.endsWith("Id") || parameter.endsWith("Date") || parameter.equals("durationDays")
            || parameter.equals("month") || parameter.equals("workFromYear");
    }

    public boolean isComplex() {
        return interactiveNumber > 0;
    }
}
