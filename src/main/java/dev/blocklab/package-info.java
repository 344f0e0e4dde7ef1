/**
 * The lab's root: {@link dev.blocklab.Defaults}, every default value that more than one door (the CLI, the server,
 * the library, the experiments) would otherwise write down again, and {@link dev.blocklab.TextFiles}, reading the
 * lab's own text files with one-line errors. It depends on nothing, so any package may read it.
 */
package dev.blocklab;
