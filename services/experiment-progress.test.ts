import { trainingProgress } from './experiment-progress';

const base = { status: 'running', baseModels: 0, ensembles: 0, maxModels: 6, plannedInPlan: 10, ensemblesExcluded: false };

describe('trainingProgress', () => {
  it('counts base models against min(max_models, plan) and the ensemble apart: never "7 of 6"', () => {
    expect(trainingProgress({ ...base, baseModels: 5 })).toMatchObject({ models_done: 5, models_planned: 6, ensemble: 'pending', summary: '5 of 6 models, ensemble pending', percent: 75 });
    const done = trainingProgress({ ...base, status: 'succeeded', baseModels: 6, ensembles: 1 });
    expect(done).toMatchObject({ models_done: 6, models_planned: 6, ensembles_done: 1, ensemble: 'done', summary: '6 of 6 models + ensemble', percent: 100 });
    expect(trainingProgress({ ...base, baseModels: 6, ensembles: 2 }).summary).toBe('6 of 6 models + 2 ensembles');
  });

  it('moves the percent with the models, the ensemble taking the last share, and stays under 100 until success', () => {
    const percents = [0, 1, 2, 3, 4, 5, 6].map((n) => trainingProgress({ ...base, baseModels: n }).percent);
    expect(percents).toEqual([0, 15, 30, 45, 60, 75, 90]);
    expect(trainingProgress({ ...base, baseModels: 6, ensembles: 1 }).percent).toBe(95);
    // Without an ensemble the base models fill 95%.
    expect(trainingProgress({ ...base, baseModels: 6, ensemblesExcluded: true }).percent).toBe(95);
    expect(trainingProgress({ ...base, status: 'canceled', baseModels: 3 })).toMatchObject({ ensemble: 'skipped', percent: 48, summary: '3 of 6 models' });
  });

  it('is "not prepared" until the plan is known, and then plans no more than the plan holds', () => {
    expect(trainingProgress({ ...base, plannedInPlan: undefined })).toMatchObject({ prepared: false, models_planned: 6 });
    expect(trainingProgress({ ...base, plannedInPlan: 2 })).toMatchObject({ prepared: true, models_planned: 2 });
    expect(trainingProgress({ ...base, plannedInPlan: 1, status: 'succeeded', baseModels: 1 })).toMatchObject({ ensemble: 'skipped', summary: '1 of 1 model', percent: 100 });
  });
});
