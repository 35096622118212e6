import * as fs from 'fs';
import { HELPER_SCRIPT } from './helper-script';

describe('helper script', () => {
  // binFrame falls back to binning alone when its helper cannot start, so a wrong path would only show as lost speed.
  it('is compiled where HistogramBuilder and binFrame start it', () => {
    expect(fs.existsSync(HELPER_SCRIPT)).toBe(true);
  });
});
