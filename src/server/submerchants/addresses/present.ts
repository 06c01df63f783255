import type { Address } from './service.js';

export function presentAddress(address: Address) {
  return {
    id: address.id,
    submerchant_id: address.submerchantId,
    street: address.street,
    number: address.number,
    complement: address.complement,
    neighborhood: address.neighborhood,
    city: address.city,
    state: address.state,
    zip_code: address.zipCode,
    country: address.country,
    type: address.type,
    is_primary: address.isPrimary,
    created_at: address.createdAt,
    updated_at: address.updatedAt,
  };
}
