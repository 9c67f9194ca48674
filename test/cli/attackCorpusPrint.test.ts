// The trust boundary's attack corpus through `jarvis -p` (docs/trust-boundary.md "Attack corpus"; issue 43): every row
// first proved to work in plain bash, then made as a prompt-injected model's Bash call in print mode (auto mode), as
// root and as an unprivileged user: each refused, the canaries outside untouched, the legitimate forms working.
import { describeCorpus } from '../helpers/corpusCli';

describeCorpus('print');
