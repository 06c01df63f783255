import type { Messages } from '../en/index.js';

export const signIn: Messages['signIn'] = {
  title: 'Entrar',
  heading: 'Entrar no Vigia',
  email: 'E-mail',
  password: 'Senha',
  submit: 'Entrar',
  refused: 'E-mail ou senha incorretos.',
  language: 'Idioma',
  setPasswordTitle: 'Defina sua senha',
  passwordSet: 'Senha definida.',
  goToSignIn: 'Ir para a entrada',
  passwordAdvice:
    'Pelo menos 12 caracteres. Uma frase longa é mais fácil de lembrar e mais difícil de adivinhar.',
  newPassword: 'Nova senha',
  repeat: 'Repita a senha',
  mismatch: 'As duas senhas são diferentes.',
  setPassword: 'Definir senha',
};
