/**
 * The command line: a thin picocli layer over the pipeline. Commands parse options, call the library, and hand
 * results to a report. Bad input ends in one line on stderr naming the problem and exit code 2; {@code --verbose}
 * adds the stack trace.
 */
package dev.blocklab.cli;
