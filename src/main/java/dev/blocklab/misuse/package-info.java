/**
 * The misuse showcase ({@code blocklab reproduce misuse}): small programs that block where they must not (an
 * event loop, the common pool, Reactor's parallel scheduler, RxJava's computation pool, a virtual thread pinned by
 * an FFM upcall, by a class initialiser or by a blocking native call), each beside the correct way to do the same
 * wait. A wrong case knows the rule it breaks and the line that blocks (captured with {@link
 * dev.blocklab.misuse.Lines#here()} on that very line), so the auditor's answer can be checked exactly.
 */
package dev.blocklab.misuse;
