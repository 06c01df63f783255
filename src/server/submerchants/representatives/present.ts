import type { Representative } from './service.js';

export function presentRepresentative(representative: Representative) {
  return {
    id: representative.id,
    submerchant_id: representative.submerchantId,
    name: representative.name,
    document: representative.document,
    entity_type: representative.entityType,
    legal_name: representative.legalName,
    birth_date: representative.birthDate,
    mother_name: representative.motherName,
    email: representative.email,
    phone: representative.phone,
    role: representative.role,
    qualification: representative.qualification,
    participation_percentage: representative.participationPercentage,
    is_admin: representative.isAdmin,
    review_status: representative.reviewStatus,
    created_at: representative.createdAt,
    updated_at: representative.updatedAt,
  };
}
