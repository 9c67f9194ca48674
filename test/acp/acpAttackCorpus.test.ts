// The trust boundary's attack corpus through `jarvis acp` in manual mode (docs/trust-boundary.md "Attack corpus";
// issue 43), as the current user (root where the tests run as root): every row first proved to work in plain bash,
// then made as a Bash call the editor's user allows — so the sandbox, not the approval, is what holds: each refused,
// the files outside untouched, the legitimate forms working; a request to leave the sandbox is asked again and
// refused. As an unprivileged user: acpAttackCorpusUser.test.ts.
import { describeCorpus } from '../helpers/corpusCli';

describeCorpus('acp', 'current');
