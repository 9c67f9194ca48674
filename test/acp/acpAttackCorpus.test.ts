// The trust boundary's attack corpus through `jarvis acp` in manual mode (docs/trust-boundary.md "Attack corpus";
// issue 43): every row first proved to work in plain bash, then made as a Bash call the editor's user allows — so the
// sandbox, not the approval, is what holds — as root and as an unprivileged user: each refused, the canaries outside
// untouched, the legitimate forms working; a request to leave the sandbox is asked again and refused.
import { describeCorpus } from '../helpers/corpusCli';

describeCorpus('acp');
