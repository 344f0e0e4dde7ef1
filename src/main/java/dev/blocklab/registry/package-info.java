/**
 * The one registry of everything that can execute a workload: the engine's models and seed 002's framework
 * variants behind {@link dev.blocklab.model.Model}, each a {@link dev.blocklab.model.ModelEntry}, parsed once into
 * a {@link dev.blocklab.model.ModelSpec}. It sits above {@code model} and {@code frameworks} (which depends on
 * {@code model}), so neither depends on the other's list.
 */
package dev.blocklab.registry;
