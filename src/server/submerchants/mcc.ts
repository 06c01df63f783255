/**
 * CNAE → MCC: the merchant category code card networks expect, resolved from a submerchant's primary CNAE
 * (IBGE's CNAE 2.3 subclass, 7 digits) when the merchant does not send `mcc`. The table covers the activities
 * marketplaces onboard most; anything else stays unresolved and `requirements` asks for an explicit `mcc`.
 * Keyed by the 7 subclass digits; documented in docs/submerchants.md.
 */
export const CNAE_TO_MCC: Readonly<Record<string, { mcc: string; activity: string }>> = {
  // Food retail
  '4711301': { mcc: '5411', activity: 'Hipermercados' },
  '4711302': { mcc: '5411', activity: 'Supermercados' },
  '4712100': { mcc: '5411', activity: 'Minimercados, mercearias e armazéns' },
  '4721102': { mcc: '5462', activity: 'Padaria e confeitaria com predominância de revenda' },
  '4721104': { mcc: '5441', activity: 'Doces, balas, bombons e semelhantes' },
  '4722901': { mcc: '5422', activity: 'Carnes (açougues)' },
  '4723700': { mcc: '5921', activity: 'Bebidas' },
  '4729601': { mcc: '5993', activity: 'Tabacaria' },
  '4729699': { mcc: '5499', activity: 'Produtos alimentícios em geral' },
  // Food service
  '5611201': { mcc: '5812', activity: 'Restaurantes e similares' },
  '5611203': { mcc: '5814', activity: 'Lanchonetes, casas de chá, de sucos e similares' },
  '5611204': { mcc: '5813', activity: 'Bares sem entretenimento' },
  '5620104': { mcc: '5499', activity: 'Fornecimento de alimentos preparados para consumo domiciliar' },
  // General and specialised retail
  '4713002': { mcc: '5331', activity: 'Lojas de variedades' },
  '4713004': { mcc: '5311', activity: 'Lojas de departamentos ou magazines' },
  '4744001': { mcc: '5251', activity: 'Ferragens e ferramentas' },
  '4744099': { mcc: '5211', activity: 'Materiais de construção em geral' },
  '4751201': { mcc: '5732', activity: 'Equipamentos e suprimentos de informática' },
  '4752100': { mcc: '5732', activity: 'Equipamentos de telefonia e comunicação' },
  '4753900': { mcc: '5722', activity: 'Eletrodomésticos e equipamentos de áudio e vídeo' },
  '4754701': { mcc: '5712', activity: 'Móveis' },
  '4759899': { mcc: '5719', activity: 'Outros artigos de uso pessoal e doméstico' },
  '4761001': { mcc: '5942', activity: 'Livros' },
  '4761003': { mcc: '5943', activity: 'Artigos de papelaria' },
  '4763601': { mcc: '5945', activity: 'Brinquedos e artigos recreativos' },
  '4763602': { mcc: '5941', activity: 'Artigos esportivos' },
  '4771701': { mcc: '5912', activity: 'Produtos farmacêuticos, sem manipulação de fórmulas' },
  '4772500': { mcc: '5977', activity: 'Cosméticos, perfumaria e higiene pessoal' },
  '4773300': { mcc: '5976', activity: 'Artigos médicos e ortopédicos' },
  '4774100': { mcc: '8043', activity: 'Artigos de óptica' },
  '4781400': { mcc: '5651', activity: 'Artigos do vestuário e acessórios' },
  '4782201': { mcc: '5661', activity: 'Calçados' },
  '4782202': { mcc: '5948', activity: 'Artigos de viagem' },
  '4783101': { mcc: '5944', activity: 'Artigos de joalheria' },
  '4789002': { mcc: '5992', activity: 'Plantas e flores naturais' },
  '4789004': { mcc: '5995', activity: 'Animais vivos e artigos para animais (pet shops)' },
  '4789099': { mcc: '5999', activity: 'Outros produtos não especificados' },
  // Vehicles and fuel
  '4511101': { mcc: '5511', activity: 'Automóveis novos' },
  '4520001': { mcc: '7538', activity: 'Manutenção mecânica de veículos' },
  '4530703': { mcc: '5533', activity: 'Peças e acessórios novos para veículos' },
  '4731800': { mcc: '5541', activity: 'Combustíveis para veículos' },
  '7711000': { mcc: '7512', activity: 'Locação de automóveis sem condutor' },
  '5223100': { mcc: '7523', activity: 'Estacionamento de veículos' },
  // Transport, travel, lodging
  '4923001': { mcc: '4121', activity: 'Táxi' },
  '4921301': { mcc: '4111', activity: 'Transporte rodoviário coletivo municipal' },
  '5320202': { mcc: '4215', activity: 'Entrega rápida' },
  '5510801': { mcc: '7011', activity: 'Hotéis' },
  '7911200': { mcc: '4722', activity: 'Agências de viagens' },
  // Services
  '9602501': { mcc: '7230', activity: 'Cabeleireiros, manicure e pedicure' },
  '9602502': { mcc: '7298', activity: 'Atividades de estética e outros serviços de beleza' },
  '9601701': { mcc: '7210', activity: 'Lavanderias' },
  '9313100': { mcc: '7997', activity: 'Atividades de condicionamento físico' },
  '8121400': { mcc: '7349', activity: 'Limpeza em prédios e em domicílios' },
  '7420001': { mcc: '7333', activity: 'Atividades de produção de fotografias' },
  '7311400': { mcc: '7311', activity: 'Agências de publicidade' },
  '7020400': { mcc: '7392', activity: 'Consultoria em gestão empresarial' },
  '6911701': { mcc: '8111', activity: 'Serviços advocatícios' },
  '6920601': { mcc: '8931', activity: 'Atividades de contabilidade' },
  '8219999': { mcc: '7399', activity: 'Serviços de apoio administrativo não especificados' },
  '4120400': { mcc: '1520', activity: 'Construção de edifícios' },
  '4321500': { mcc: '1731', activity: 'Instalação e manutenção elétrica' },
  '4322301': { mcc: '1711', activity: 'Instalações hidráulicas, sanitárias e de gás' },
  // Technology and communication
  '6201501': { mcc: '7372', activity: 'Desenvolvimento de programas de computador sob encomenda' },
  '6202300': { mcc: '7372', activity: 'Desenvolvimento e licenciamento de programas customizáveis' },
  '6203100': { mcc: '7372', activity: 'Desenvolvimento e licenciamento de programas não customizáveis' },
  '6204000': { mcc: '7372', activity: 'Consultoria em tecnologia da informação' },
  '6311900': { mcc: '7372', activity: 'Tratamento de dados, provedores de serviços de aplicação' },
  '6319400': { mcc: '4816', activity: 'Portais, provedores de conteúdo e outros serviços de informação' },
  '6120501': { mcc: '4814', activity: 'Telefonia móvel celular' },
  '6141800': { mcc: '4899', activity: 'Operadoras de televisão por assinatura por cabo' },
  // Health and education
  '8610101': { mcc: '8062', activity: 'Atendimento hospitalar' },
  '8630503': { mcc: '8011', activity: 'Atividade médica ambulatorial restrita a consultas' },
  '8630504': { mcc: '8021', activity: 'Atividade odontológica' },
  '8640202': { mcc: '8071', activity: 'Laboratórios clínicos' },
  '8650004': { mcc: '8099', activity: 'Atividades de fisioterapia' },
  '7500100': { mcc: '0742', activity: 'Atividades veterinárias' },
  '8513900': { mcc: '8211', activity: 'Ensino fundamental' },
  '8532500': { mcc: '8220', activity: 'Educação superior - graduação' },
  '8593700': { mcc: '8299', activity: 'Ensino de idiomas' },
  '8599604': { mcc: '8299', activity: 'Treinamento em desenvolvimento profissional e gerencial' },
  // Culture, entertainment, organisations
  '5914600': { mcc: '7832', activity: 'Atividades de exibição cinematográfica' },
  '9001999': { mcc: '7922', activity: 'Artes cênicas, espetáculos e atividades complementares' },
  '9430800': { mcc: '8398', activity: 'Associações de defesa de direitos sociais' },
  '9491000': { mcc: '8661', activity: 'Organizações religiosas' },
};

/** The 7 digits of a CNAE subclass written as `4751201` or `4751-2/01`. */
export const cnaeDigits = (code: string): string => code.replace(/\D/g, '');

/** The MCC for a CNAE code, or null when the table has no entry for it. */
export function mccForCnae(code: string): string | null {
  return CNAE_TO_MCC[cnaeDigits(code)]?.mcc ?? null;
}
