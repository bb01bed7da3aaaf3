package io.dedupq.api;

/** Ends a request with the given problem; nothing has been written when it is thrown. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.title() + ": " + problem.detail(), null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
