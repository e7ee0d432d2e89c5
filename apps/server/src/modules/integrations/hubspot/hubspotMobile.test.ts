import { describe, expect, it } from 'vitest';
import { chooseHubSpotMobile, hubspotMobileOrders, hubspotPhoneProperties } from './hubspotMobile.js';

const both = { phone: '+14155550100', mobilephone: '+16285550199' };

describe('the HubSpot mobile property option', () => {
  it('offers phone, mobilephone, and both in either order', () => {
    expect(hubspotMobileOrders.map(hubspotPhoneProperties)).toEqual([['phone'], ['mobilephone'], ['phone', 'mobilephone'], ['mobilephone', 'phone']]);
  });

  it('takes the one property a single option names, and nothing when it is missing', () => {
    expect(chooseHubSpotMobile(both, 'phone')).toBe('+14155550100');
    expect(chooseHubSpotMobile(both, 'mobilephone')).toBe('+16285550199');
    expect(chooseHubSpotMobile({ mobilephone: '+16285550199' }, 'phone')).toBeNull();
    expect(chooseHubSpotMobile({ phone: '+14155550100', mobilephone: null }, 'mobilephone')).toBeNull();
  });

  it('takes the first of both that holds a value, in the order chosen', () => {
    expect(chooseHubSpotMobile(both, 'phone,mobilephone')).toBe('+14155550100');
    expect(chooseHubSpotMobile(both, 'mobilephone,phone')).toBe('+16285550199');
    expect(chooseHubSpotMobile({ phone: null, mobilephone: '+16285550199' }, 'phone,mobilephone')).toBe('+16285550199');
    expect(chooseHubSpotMobile({ phone: '+14155550100', mobilephone: '   ' }, 'mobilephone,phone')).toBe('+14155550100');
  });

  it('answers null when no property holds a value, and trims what it takes', () => {
    expect(chooseHubSpotMobile({}, 'phone,mobilephone')).toBeNull();
    expect(chooseHubSpotMobile({ phone: '', mobilephone: null }, 'mobilephone,phone')).toBeNull();
    expect(chooseHubSpotMobile({ phone: ' +14155550100 ' }, 'phone')).toBe('+14155550100');
  });
});
