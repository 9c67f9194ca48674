// The ConfigError a config.toml text is refused with (store/config.ts), for tests of what a bad value says.
import { ConfigError, parseConfigText } from '../../src/store/config';

/** The error `text` (a config.toml) is refused with; fails the test when it parses or throws something else. */
export function configTextError(text: string): ConfigError {
  try {
    parseConfigText(text, '/cfg/config.toml');
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}
