import { DEFAULT_RATE_LIMITS } from '../http/rate-limit.js';
import type { PreviousKey, RolledKey } from './keys.js';
import type { Merchant } from './service.js';

export function presentMerchant(merchant: Merchant) {
  return {
    id: merchant.id,
    name: merchant.name,
    fraud_analysis_mandatory: merchant.fraudAnalysisMandatory,
    allowed_hosts: merchant.allowedHosts,
    ip_lookup_urls: merchant.ipLookupUrls,
    profiler_enabled: merchant.profilerEnabled,
    rate_limits: { ...DEFAULT_RATE_LIMITS, ...merchant.rateLimits },
    document: merchant.document,
    created_at: merchant.createdAt,
    updated_at: merchant.updatedAt,
  };
}

export function presentPreviousKey(previous: PreviousKey) {
  return {
    id: previous.id,
    type: previous.type,
    rolled_at: previous.rolledAt,
    expires_at: previous.expiresAt,
  };
}

export function presentRolledKey(rolled: RolledKey) {
  return {
    type: rolled.type,
    key: rolled.key,
    previous_key: rolled.previousKey && presentPreviousKey(rolled.previousKey),
  };
}
