package io.sluice.cli;

/**
 * Why a command could not do what it was asked: the message is the one line the operator reads
 * after {@code sluice: }, the exit code tells scripts which kind of failure it was.
 */
final class CliFailure extends RuntimeException {

    private final int exitCode;

    private CliFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The server answered, and said no (or not found): exit code {@value AdminCli#REFUSED}. */
    static CliFailure refused(String message) {
        return new CliFailure(AdminCli.REFUSED, message, null);
    }

    /** The command line, or a file it names, is not usable: exit code {@value AdminCli#USAGE}. */
    static CliFailure usage(String message) {
        return new CliFailure(AdminCli.USAGE, message, null);
    }

    /** The same, with the exception that explains it. */
    static CliFailure usage(String message, Throwable cause) {
        return new CliFailure(AdminCli.USAGE, message, cause);
    }

    /** No answer from the server: exit code {@value AdminCli#UNREACHABLE}. */
    static CliFailure unreachable(String message, Throwable cause) {
        return new CliFailure(AdminCli.UNREACHABLE, message, cause);
    }

    int exitCode() {
        return exitCode;
    }
}
