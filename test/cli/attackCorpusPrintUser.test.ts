// The trust boundary's attack corpus through `jarvis -p` (docs/trust-boundary.md "Attack corpus"; issue 43), as an
// unprivileged user made for the test where the tests run as root: every row first proved to work in plain bash, then
// made as a prompt-injected model's Bash call in print mode: each refused, the files outside untouched, the legitimate
// forms working.
import { describeCorpus } from '../helpers/corpusCli';

describeCorpus('print', 'unprivileged');
