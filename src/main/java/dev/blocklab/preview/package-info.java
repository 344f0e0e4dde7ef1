/**
 * The one place that touches preview APIs. {@link dev.blocklab.preview.StructuredConcurrency} is an ordinary
 * class every JDK from 25 on loads; it reaches {@code StructuredTaskScope} (a preview API in JDK 25, JEP 505,
 * changed again in JDK 26) only through {@code PreviewScopes}, and reports the feature unavailable when that
 * class cannot be loaded (no {@code --enable-preview}, or a JDK whose preview API differs).
 */
package dev.blocklab.preview;
