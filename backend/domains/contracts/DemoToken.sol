// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// The demo project's token (docs/decisions/033): a small ERC-20-like token written for this product.
contract DemoToken {
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);

  string public name;
  string public symbol;
  uint8 public constant decimals = 18;
  uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;

  constructor(string memory name_, string memory symbol_, uint256 supply) {
    name = name_;
    symbol = symbol_;
    totalSupply = supply;
    balanceOf[msg.sender] = supply;
    emit Transfer(address(0), msg.sender, supply);
  }

  function transfer(address to, uint256 value) external returns (bool) {
    _move(msg.sender, to, value);
    return true;
  }

  function approve(address spender, uint256 value) external returns (bool) {
    allowance[msg.sender][spender] = value;
    emit Approval(msg.sender, spender, value);
    return true;
  }

  function transferFrom(address from, address to, uint256 value) external returns (bool) {
    uint256 allowed = allowance[from][msg.sender];
    require(allowed >= value, "allowance too low");
    if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
    _move(from, to, value);
    return true;
  }

  function _move(address from, address to, uint256 value) private {
    require(to != address(0), "transfer to the zero address");
    require(balanceOf[from] >= value, "balance too low");
    balanceOf[from] -= value;
    balanceOf[to] += value;
    emit Transfer(from, to, value);
  }
}
