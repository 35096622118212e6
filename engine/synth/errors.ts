/** A condition no generated row can meet: an unknown column, an unseen category, a value outside the training range. */
export class SynthConditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SynthConditionError';
  }
}

/**
 * A model configuration that cannot be trained (pac not dividing batch_size, sizes out of bounds, unknown options), or a
 * table the model cannot take (more latent dimensions than the copula models). Retrying it cannot help.
 */
export class SynthConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SynthConfigError';
  }
}
