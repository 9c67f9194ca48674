import { describe, expect, it } from 'vitest';
import { detectSecrets } from '../../src/store/secretDetector';
import { HARMLESS_SAMPLES, SECRET_SAMPLES } from '../fixtures/secrets/secretCorpus';

describe('credential detector corpus', () => {
  it('holds at least 50 secret shapes and 50 harmless look-alikes', () => {
    expect(SECRET_SAMPLES.length).toBeGreaterThanOrEqual(50);
    expect(HARMLESS_SAMPLES.length).toBeGreaterThanOrEqual(50);
  });

  it('flags every secret shape and none of the look-alikes (rates reported)', () => {
    const missed = SECRET_SAMPLES.filter((s) => detectSecrets(s.text).length === 0).map((s) => s.name);
    const falseAlarms = HARMLESS_SAMPLES.filter((s) => detectSecrets(s.text).length > 0).map(
      (s) => `${s.name}: ${detectSecrets(s.text)[0].kind}`,
    );
    const detection = (SECRET_SAMPLES.length - missed.length) / SECRET_SAMPLES.length;
    const falsePositive = falseAlarms.length / HARMLESS_SAMPLES.length;
    console.log(
      `secret detector: detection ${(detection * 100).toFixed(1)}% (${SECRET_SAMPLES.length - missed.length}/${SECRET_SAMPLES.length}), ` +
        `false positives ${(falsePositive * 100).toFixed(1)}% (${falseAlarms.length}/${HARMLESS_SAMPLES.length})`,
    );
    expect(missed).toEqual([]);
    expect(falseAlarms).toEqual([]);
  });

  it('says what kind of credential and where, without the value', () => {
    const text = 'The deploy user is ci. Its key: AKIAFAKEEXAMPLE12345.';
    const [finding] = detectSecrets(text);
    expect(finding.kind).toBe('an AWS access key id');
    expect(text.slice(finding.index, finding.index + finding.length)).toBe('AKIAFAKEEXAMPLE12345');
  });

  it('reports each span once when shapes overlap', () => {
    const text = 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJGQUtFIn0.FAKEsignatureFAKE123';
    expect(detectSecrets(text)).toHaveLength(1);
  });
});
