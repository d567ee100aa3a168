// HostsReady: which of its hosts an exposed tenant routes. A withheld custom host or a stray
// hand-made route is the tenant's own problem, not a failure of the tenant: it runs and routes the
// rest, so HostsReady=False leaves Ready as it is (status.ts: facet conditions do not make Ready),
// and turning False is announced once as a Warning Event on the Tenant (status-change.ts). Pure.
import type { ConditionInput } from '../../api/conditions.js';
import { CONDITION } from '../../api/tenant.js';
import { EXPOSURE_MESSAGE, EXPOSURE_REASON } from './reasons.js';
import type { Exposed, WithheldHost } from './exposure.js';

function withheldText({ host, reason, holder }: WithheldHost): string {
  return reason === EXPOSURE_REASON.hostTemplated
    ? EXPOSURE_MESSAGE.templated(host, holder)
    : EXPOSURE_MESSAGE.conflict(host, holder);
}

/** Withheld hosts first (the first one's reason), then stray routes; True when neither. */
export function hostsCondition(exposed: Exposed): ConditionInput {
  const type = CONDITION.hostsReady;
  const { withheld, strays, hosts } = exposed;
  if (withheld.length === 0 && strays.length === 0)
    return { type, status: 'True', reason: EXPOSURE_REASON.ready, message: EXPOSURE_MESSAGE.held(hosts) };
  const texts = [
    ...withheld.map(withheldText),
    ...strays.map((s) => EXPOSURE_MESSAGE.stray(s.route, s.hosts)),
    EXPOSURE_MESSAGE.rest(hosts),
  ];
  const reason = withheld[0]?.reason ?? EXPOSURE_REASON.strayRoute;
  return { type, status: 'False', reason, message: texts.join('; ') };
}
