/**
 * The neural fit itself, synchronous, on whatever TensorFlow.js backend is active: prepare the table (prepare.ts:
 * columns, CopulaGAN's normal scores, the transformer, the encoding, a checkpoint to resume), train epoch by epoch
 * with progress and checkpoints, and return the model. `fitNeural` runs it in a worker thread; tests may call it
 * directly. engine/gpu/neural/fit.ts is the same fit on the GPU, with the same preparation, checkpoints and model.
 *
 * A resumed fit continues at the epoch after the checkpoint's with the checkpoint's weights, Adam moments and random
 * stream.
 */
import * as tf from '@tensorflow/tfjs';
import type { Frame } from '../../automl';
import type { CtganConfig, TvaeConfig } from '../types';
import type { NeuralModelType } from './config';
import { CtganTrainer } from './ctgan';
import type { NeuralModel } from './model';
import { assembleNeuralModel, CheckpointClock, checkpointBytes, epochMessage, FitCoreHooks, prepareNeuralFit } from './prepare';
import { NeuralRng } from './rng';
import { TvaeTrainer } from './tvae';

export type { FitCoreHooks };
export { checkpointEpoch } from './prepare';

/** Fits a CTGAN, TVAE or CopulaGAN model on a frame (synchronously). */
export function fitNeuralCore(type: NeuralModelType, frame: Frame, input: Partial<CtganConfig> | Partial<TvaeConfig>, hooks: FitCoreHooks = {}): NeuralModel {
  const fit = prepareNeuralFit(type, frame, input, hooks);
  const { config, resume } = fit;
  const layout = fit.transformer.layout;
  const rng = new NeuralRng(fit.seed);
  const trainer = type === 'tvae' ? new TvaeTrainer(layout, fit.encoded, fit.nrows, config, rng) : new CtganTrainer(layout, fit.encoded, fit.nrows, config as CtganConfig, rng);
  try {
    if (resume) {
      if (trainer instanceof CtganTrainer) trainer.writeState(resume.tensors, resume.steps as { g: number; d: number });
      else trainer.writeState(resume.tensors, resume.steps as number);
      rng.state = resume.rngState;
    }
    const clock = new CheckpointClock(config.epochs, hooks.checkpointEveryMs);
    const check = hooks.checkCancel ?? (() => {});
    for (let epoch = (resume?.epoch ?? 0) + 1; epoch <= config.epochs; epoch++) {
      const losses = trainer.epoch(rng, check);
      hooks.onEpoch?.(epoch, config.epochs, epochMessage(epoch, config.epochs, losses));
      if (hooks.onCheckpoint && clock.due(epoch)) {
        hooks.onCheckpoint(checkpointBytes(fit, epoch, rng.state, trainer.readState()), epoch);
        clock.taken();
      }
    }
    const weights = trainer instanceof CtganTrainer ? trainer.generatorWeights() : trainer.decoderWeights();
    const discreteCounts = trainer instanceof CtganTrainer ? trainer.sampler.counts() : [];
    return assembleNeuralModel(fit, weights, discreteCounts, tf.getBackend());
  } finally {
    trainer.dispose();
  }
}
