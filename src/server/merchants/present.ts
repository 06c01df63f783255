import { DEFAULT_RATE_LIMITS } from '../http/rate-limit.js';
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
    created_at: merchant.createdAt,
    updated_at: merchant.updatedAt,
  };
}
