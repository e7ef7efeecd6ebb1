/**
 * One dedicated network's thread (docs/decisions/046): its orderer and every peer are chains of the embedded
 * engine, each opened here under its node name ("orderer", "peer-1", …) with its own LevelDB directory, and
 * served by the same operations as the registry's engine thread (open, seal, reconcile, reads…), one call
 * after another. Ending the worker ends the network's nodes.
 */
import "#backend/domains/chain/engine.worker.ts";
