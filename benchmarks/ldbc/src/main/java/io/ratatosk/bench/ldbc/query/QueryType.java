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
    IC8(8, "personId"),
    IC9(9, "personId", "maxDate"),
    IC13(13, "person1Id", "person2Id");

    /** The complex reads, in the order the workload first runs each once. */
    public static final List<QueryType> COMPLEX = List.of(IC1, IC2, IC8, IC9, IC13);
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

    /** Parameter names in order; names ending in Id or Date hold numbers, the rest strings. */
    public List<String> parameters() {
        return parameters;
    }

    public boolean isComplex() {
        return interactiveNumber > 0;
    }
}
