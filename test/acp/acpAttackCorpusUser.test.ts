// The trust boundary's attack corpus through `jarvis acp` in manual mode (docs/trust-boundary.md "Attack corpus";
// issue 43), as an unprivileged user made for the test where the tests run as root: every row first proved to work in
// plain bash, then made as a Bash call the editor's user allows: each refused, the files outside untouched, the
// legitimate forms working; a request to leave the sandbox is asked again and refused.
import { describeCorpus } from '../helpers/corpusCli';

describeCorpus('acp', 'unprivileged');
